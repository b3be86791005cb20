"""pagereader never reads its own outputs back as inputs: an output folder kept inside the
input folder, an earlier run's OUT, or this run's OUT, found by a folder walk, a glob or a
remote prefix."""

from __future__ import annotations

from pathlib import Path

import fsspec
import pytest

from pagereader.batch.inputs import iter_inputs
from pagereader.cli.parse import expand_inputs
from pagereader.sources.discover import is_output_folder


def _touch(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x")
    return path


def _document_output(folder: Path) -> None:
    for name in ("document.json", "document.md", "pages/001.png", "pages/002.png"):
        _touch(folder / name)


@pytest.fixture
def docs(tmp_path: Path) -> tuple[Path, list[Path]]:
    """An input folder holding two documents, this run's OUT, an earlier parse's OUT (its page
    cache), an earlier batch's OUT (its _batch folder) and one stray document output."""
    root = tmp_path / "docs"
    wanted = [_touch(root / "a.pdf"), _touch(root / "scans" / "b.png")]
    _document_output(root / "parsed" / "a")  # this run's OUT
    _touch(root / "old-parse" / ".pagereader-cache.sqlite")
    _touch(root / "old-parse" / "notes.png")
    _touch(root / "old-batch" / "_batch" / "manifest.sqlite")
    _touch(root / "old-batch" / "c.png")
    _document_output(root / "scans" / "b-out")
    return root, wanted


def test_output_folders_are_recognised(docs: tuple[Path, list[Path]]) -> None:
    root, _ = docs
    assert is_output_folder(root / "scans" / "b-out")
    assert is_output_folder(root / "old-parse") and is_output_folder(root / "old-batch")
    assert not is_output_folder(root / "scans") and not is_output_folder(root)


def test_parse_walk_skips_every_output(docs: tuple[Path, list[Path]]) -> None:
    root, wanted = docs
    assert expand_inputs([root], root / "parsed") == wanted
    # a file named on the command line is read as given, even inside an output folder
    page = root / "scans" / "b-out" / "pages" / "001.png"
    assert expand_inputs([page], root / "parsed") == [page]


def test_batch_folder_and_glob_skip_every_output(docs: tuple[Path, list[Path]]) -> None:
    root, wanted = docs
    out = str(root / "parsed")
    assert [i.uri for i in iter_inputs([str(root)], out=out)] == [str(p) for p in wanted]
    pngs = [i.uri for i in iter_inputs([str(root / "**" / "*.png")], out=out)]
    assert pngs == [str(wanted[1])]


def test_batch_remote_prefix_skips_every_output() -> None:
    fs = fsspec.filesystem("memory")
    base = "/corpus"
    for key in (
        "a.pdf",
        "scans/b.png",
        "out/a/document.json",
        "out/a/document.md",
        "out/a/pages/001.png",
        "older/_batch/manifest.sqlite",
        "older/c/pages/001.png",
        "stray/document.json",
        "stray/document.md",
        "stray/pages/001.png",
    ):
        fs.pipe(f"{base}/{key}", b"x")
    try:
        found = [i.uri for i in iter_inputs([f"memory://{base}"], out=f"memory://{base}/out")]
        assert found == [f"memory://{base}/a.pdf", f"memory://{base}/scans/b.png"]
    finally:
        fs.rm(base, recursive=True)
