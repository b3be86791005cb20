"""``parse`` killed (SIGKILL) while it writes a document: the earlier run's folder is still
there, whole, beside the hidden folder the killed run was building; the next run replaces
the folder whole and removes what the killed one left."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from adversarial.conftest import cli_env
from adversarial.documents import text_pdf
from folders import tree_bytes

PAGES = 30


def _building(out: Path) -> list[Path]:
    """Overlays the run being killed has written in its hidden folder."""
    return list(out.glob(".deck.tmp-*/pages/*.png"))


def test_a_killed_parse_leaves_the_earlier_folder_and_the_next_run_sweeps(
    tmp_path: Path,
) -> None:
    text_pdf(tmp_path / "deck.pdf", pages=PAGES)
    command = [sys.executable, "-m", "pagereader", "parse", "deck.pdf", "-o", "O", "--no-resume"]
    first = subprocess.run(command, cwd=tmp_path, env=cli_env(), capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    out = tmp_path / "O"
    before = tree_bytes(out / "deck")
    assert len([name for name in before if name.startswith("pages/")]) == PAGES

    killed = subprocess.Popen(
        command, cwd=tmp_path, env=cli_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 120
    while not _building(out) and killed.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    killed.send_signal(signal.SIGKILL)
    killed.wait(30)
    assert killed.returncode == -signal.SIGKILL, "the run ended before its folder held an overlay"
    assert _building(out), "no overlay was being written when the run was killed"
    assert tree_bytes(out / "deck") == before  # the earlier run's folder, every byte

    again = subprocess.run(command, cwd=tmp_path, env=cli_env(), capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    after = tree_bytes(out / "deck")
    assert set(after) == set(before)
    assert json.loads(after["document.json"])["status"] == "ok"
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".deck")) == []
