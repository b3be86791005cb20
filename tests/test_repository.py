"""Repository hygiene: no file names a path of one particular machine, so every checkout finds
its data the same way (relative to the repository, or from an environment variable)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# a home, root or workspace folder of some machine, written as an absolute path
MACHINE_PATH = re.compile(r"""(?<![\w.~/-])/(?:home|root|work|Users|mnt/data)/[\w.-]+""")
TEXT_SUFFIXES = {".py", ".md", ".toml", ".cfg", ".txt", ".json", ".jsonl", ".yaml", ".yml", ""}


def _tracked_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
    ).stdout.split(b"\0")
    return [REPO / name.decode() for name in listed if name]


def test_no_absolute_machine_paths() -> None:
    offenders: list[str] = []
    for path in _tracked_files():
        if path.suffix not in TEXT_SUFFIXES or not path.is_file() or path.stat().st_size > 2e6:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if MACHINE_PATH.search(line):
                offenders.append(f"{path.relative_to(REPO)}:{number}: {line.strip()[:100]}")
    assert not offenders, "absolute machine paths:\n" + "\n".join(offenders)


def test_the_pattern_catches_a_machine_path() -> None:
    root = "/"  # split so that this file does not hold the paths it looks for
    assert MACHINE_PATH.search(f'EVAL = Path("{root}work/shared/eval")')
    assert MACHINE_PATH.search(f"see {root}home/alice/data")
    assert not MACHINE_PATH.search("https://example.org/work/x and ../shared/eval")
