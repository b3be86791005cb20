"""A folder built aside and put in place whole (atomic.StagedFolder): it replaces the previous
folder whole, is on the disk before it is published, and a process killed at any point leaves
the previous folder or the new one, complete; the next writer (or a sweep) removes what the
killed one left, putting the previous folder back when the kill fell between the two renames,
and leaves a live writer's folder alone. The kills are real (SIGKILL of a child process)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from folders import tree_bytes
from pagereader import atomic
from pagereader.atomic import StagedFolder, sweep_staged

SRC = Path(__file__).resolve().parents[2] / "src"


def _hidden(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir() if p.name.startswith("."))


def _previous(out: Path) -> dict[str, bytes]:
    folder = out / "doc"
    (folder / "pages").mkdir(parents=True)
    (folder / "document.json").write_text('{"run": 1}', encoding="utf-8")
    (folder / "document.md").write_text("first run", encoding="utf-8")
    (folder / "pages" / "001.png").write_bytes(b"png one")
    return tree_bytes(folder)


CHILD = """
import os, signal, sys
from pathlib import Path
from pagereader import atomic

out, point = Path(sys.argv[1]), sys.argv[2]
staged = atomic.StagedFolder(out / "doc")
(staged.path / "document.md").write_text("second run", encoding="utf-8")
if point == "writing":
    os.kill(os.getpid(), signal.SIGKILL)
(staged.path / "document.json").write_text('{"run": 2}', encoding="utf-8")
if point == "live":
    print(staged.path.name, flush=True)
    sys.stdin.readline()
rename = os.rename

def rename_then_die(source, target):  # a kill right after the previous folder went aside
    rename(source, target)
    os.kill(os.getpid(), signal.SIGKILL)

if point == "swapping":
    os.rename = rename_then_die
staged.publish()
"""


def _child(out: Path, point: str, piped: bool = False) -> subprocess.Popen[str]:
    """The CHILD script writing OUT/doc, up to ``point``; with ``piped``, it says its folder's
    name on stdout and waits for a line on stdin before it publishes."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    }
    pipe = subprocess.PIPE if piped else None
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(out), point], env=env, text=True, stdin=pipe, stdout=pipe
    )


def test_a_folder_replaces_the_previous_one_whole(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _previous(out)
    with StagedFolder(out / "doc") as staged:
        assert staged.path.parent == out and staged.path.name.startswith(".doc.tmp-")
        (staged.path / "document.md").write_text("second run", encoding="utf-8")
        assert (out / "doc" / "document.md").read_text(encoding="utf-8") == "first run"
        staged.publish()
    assert tree_bytes(out / "doc") == {"document.md": b"second run"}  # nothing of the first left
    assert _hidden(out) == []


def test_a_discarded_folder_leaves_the_previous_one(tmp_path: Path) -> None:
    out = tmp_path / "out"
    before = _previous(out)
    with StagedFolder(out / "doc") as staged:
        (staged.path / "document.md").write_text("half", encoding="utf-8")
    assert tree_bytes(out / "doc") == before and _hidden(out) == []


def test_a_folder_is_on_disk_before_it_is_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every file and folder is flushed before the rename, OUT after it."""
    out = tmp_path / "out"
    _previous(out)
    staged = StagedFolder(out / "doc")
    (staged.path / "pages").mkdir()
    for name in ("document.md", "document.json", "pages/001.png"):
        (staged.path / name).write_bytes(b"x")
    expected = {staged.path, *staged.path.rglob("*")}
    flushed: list[tuple[Path, bool]] = []
    real_sync = atomic._sync

    def spy(path: Path) -> None:
        real_sync(path)
        flushed.append((path, not staged.path.exists()))

    monkeypatch.setattr(atomic, "_sync", spy)
    staged.publish()
    assert {path for path, published in flushed if not published} == expected
    assert flushed[-1] == (out, True)  # the renames, flushed last


def test_killed_while_writing_leaves_the_previous_folder(tmp_path: Path) -> None:
    out = tmp_path / "out"
    before = _previous(out)
    assert _child(out, "writing").wait(60) == -signal.SIGKILL
    assert tree_bytes(out / "doc") == before
    assert len(_hidden(out)) == 2  # the folder and its lock
    assert sweep_staged(out) == 1
    assert tree_bytes(out / "doc") == before and _hidden(out) == []


def test_killed_between_the_renames_the_previous_folder_is_put_back(tmp_path: Path) -> None:
    out = tmp_path / "out"
    before = _previous(out)
    assert _child(out, "swapping").wait(60) == -signal.SIGKILL
    assert not (out / "doc").exists()  # the previous folder is aside, the new one not in
    aside = [p for p in out.iterdir() if p.name.endswith(".old")]
    assert len(aside) == 1 and tree_bytes(aside[0]) == before

    with StagedFolder(out / "doc") as staged:  # the next writer sweeps first
        assert tree_bytes(out / "doc") == before
        assert _hidden(out) == [staged.path.name, staged.path.name + ".lock"]
    assert tree_bytes(out / "doc") == before and _hidden(out) == []


def test_a_live_writers_folder_is_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "out"
    before = _previous(out)
    child = _child(out, "live", piped=True)
    assert child.stdout is not None and child.stdin is not None
    name = child.stdout.readline().strip()
    try:
        assert sweep_staged(out) == 0
        with StagedFolder(out / "doc"):
            assert (out / name / "document.json").is_file()
    finally:
        child.stdin.write("\n")
        child.stdin.close()
    assert child.wait(60) == 0
    assert tree_bytes(out / "doc") == {"document.md": b"second run", "document.json": b'{"run": 2}'}
    assert before != tree_bytes(out / "doc") and _hidden(out) == []


def test_a_sweep_of_one_folder_leaves_a_lookalike_name_alone(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _previous(out)
    assert _child(out, "writing").wait(60) == -signal.SIGKILL
    left = _hidden(out)
    assert sweep_staged(out, "do") == 0 and sweep_staged(out, "doc.tmp-x") == 0
    assert _hidden(out) == left
    assert sweep_staged(out, "doc") == 1 and _hidden(out) == []
