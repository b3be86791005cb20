"""Peak resident memory and wall seconds of one ``pagereader diff`` of two long documents made
by code (tests/fixtures/long_versions.py: about 800 words a page, saved as parse saves a
document.json, so the figures are the diff's alone): two unrelated texts, and a text against
itself with one word changed in every paragraph.

Each figure is ``ru_maxrss`` of the diff process, read by a wrapper process, and its wall
time; the last column counts the stretches reported as not compared word by word. Before the
alignment was bounded (docs/measured.md): 100 x 100 pages 0.9 GB, 300 x 100 2.7 GB,
1000 x 100 8.8 GB; 1000 x 1000 would have needed about 88 GB.

    .venv/bin/python bench/diff_memory.py
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from pagereader.types import DocumentResult

from fixtures.long_versions import unrelated, with_slips, write_version

_WRAPPER = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=1800)
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""
Versions = Callable[[], tuple[DocumentResult, DocumentResult]]
CASES: dict[str, Versions] = {
    "300 x 100 pages, unrelated": lambda: (unrelated(300, 1), unrelated(100, 2)),
    "1000 x 1000 pages, unrelated": lambda: (unrelated(1000, 1), unrelated(1000, 2)),
    "1000 x 1000 pages, a slip in every paragraph": lambda: (
        unrelated(1000, 1),
        with_slips(unrelated(1000, 1))[0],
    ),
}


def measure(old: Path, new: Path, out: Path) -> tuple[float, float]:
    """Peak RSS in GB and wall seconds of one diff."""
    command = [sys.executable, "-m", "pagereader", "diff", str(old), str(new), "-o", str(out)]
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _WRAPPER, *command], capture_output=True, text=True, check=True
    )
    seconds = time.perf_counter() - start
    code, kib = done.stdout.split()[-2:]
    if code != "0":
        raise SystemExit(f"diff of {old} and {new} failed ({code})")
    return int(kib) * 1024 / 1e9, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.parse_args()
    print("| versions | words | peak GB | seconds | changes | not word by word |")
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for number, (name, make) in enumerate(CASES.items()):
            folder = Path(tmp) / str(number)
            old_doc, new_doc = make()
            old = write_version(old_doc, folder / "old")
            new = write_version(new_doc, folder / "new")
            peak, seconds = measure(old, new, folder / "diff")
            data = json.loads((folder / "diff" / "diff.json").read_text(encoding="utf-8"))
            coarse = sum(not h["word_by_word"] for c in data["changes"] for h in c["hunks"])
            words = " x ".join(
                f"{sum(len(b.text.split()) for p in d.pages for b in p.blocks):,}"
                for d in (old_doc, new_doc)
            )
            print(
                f"| {name} | {words} | {peak:.2f} | {seconds:.1f} | {len(data['changes']):,} "
                f"| {coarse} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
