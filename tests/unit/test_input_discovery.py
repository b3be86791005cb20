"""pagereader never reads its own outputs back as inputs (a document's output folder, a
batch's _batch folder, this run's OUT), found by a folder walk, a glob or a remote prefix;
a document a user keeps in an earlier run's OUT is still read."""

from __future__ import annotations

import logging
from pathlib import Path

import fsspec
import pytest

from pagereader.batch.inputs import iter_inputs
from pagereader.cli.parse import expand_inputs
from pagereader.sources.discover import is_output_folder

OUTPUT_FILES = ("document.json", "document.md", "timings.json", "pages/001.png", "pages/002.png")


def _touch(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x")
    return path


def _document_output(folder: Path) -> None:
    for name in OUTPUT_FILES:
        _touch(folder / name)


@pytest.fixture
def docs(tmp_path: Path) -> tuple[Path, list[Path]]:
    """An input folder holding documents, this run's OUT, an earlier parse's OUT and an
    earlier batch's OUT (each with a user's document kept beside the outputs), and a stray
    document output among the scans."""
    root = tmp_path / "docs"
    wanted = [_touch(root / "a.pdf")]
    _document_output(root / "old-batch" / "a")
    _touch(root / "old-batch" / "_batch" / "manifest.sqlite")
    _touch(root / "old-batch" / "_batch" / "staging" / "b.1" / "pages" / "001.png")
    wanted.append(_touch(root / "old-batch" / "kept.png"))
    _touch(root / "old-parse" / ".pagereader-cache.sqlite")
    _document_output(root / "old-parse" / "a")
    wanted.append(_touch(root / "old-parse" / "notes.png"))
    _document_output(root / "parsed" / "a")  # this run's OUT, never entered:
    _touch(root / "parsed" / "mine.pdf")  # not even for a document kept in it
    wanted.append(_touch(root / "scans" / "b.png"))
    _document_output(root / "scans" / "b-out")
    return root, wanted


def test_output_folders_are_recognised(docs: tuple[Path, list[Path]]) -> None:
    root, _ = docs
    assert is_output_folder(root / "scans" / "b-out")
    assert is_output_folder(root / "old-batch" / "_batch")
    assert not is_output_folder(root / "old-parse") and not is_output_folder(root / "scans")
    half = root / "half"
    _touch(half / "document.json")
    _touch(half / "document.md")  # a user's own files by those names, no timings: not ours
    assert not is_output_folder(half)


def test_a_half_built_output_folder_is_not_read(tmp_path: Path) -> None:
    """A run killed while it wrote leaves ``.<name>.tmp-XXXXXXXX`` (and perhaps ``.old``)
    holding overlays but no document.json yet: they are outputs, not scans."""
    root = tmp_path / "docs"
    wanted = [_touch(root / ".scans" / "b.png"), _touch(root / "a.pdf")]
    for staged in (".a.tmp-0123abcd", ".a.tmp-89abcdef.old"):
        _touch(root / "out" / staged / "pages" / "001.png")
        assert is_output_folder(root / "out" / staged)
    assert not is_output_folder(root / ".scans")
    assert expand_inputs([root], tmp_path / "elsewhere") == wanted


def test_parse_walk_skips_every_output(
    docs: tuple[Path, list[Path]], caplog: pytest.LogCaptureFixture
) -> None:
    root, wanted = docs
    with caplog.at_level(logging.WARNING):
        assert expand_inputs([root], root / "parsed") == wanted
    assert "not reading" in caplog.text and "4 more folders" in caplog.text
    # a file named on the command line is read as given, even inside an output folder
    page = root / "scans" / "b-out" / "pages" / "001.png"
    assert expand_inputs([page], root / "parsed") == [page]


def test_batch_folder_and_glob_skip_every_output(docs: tuple[Path, list[Path]]) -> None:
    root, wanted = docs
    out = str(root / "parsed")
    assert [i.uri for i in iter_inputs([str(root)], out=out)] == [str(p) for p in wanted]
    pngs = [i.uri for i in iter_inputs([str(root / "**" / "*.png")], out=out)]
    assert pngs == [str(p) for p in wanted if p.suffix == ".png"]
    # a pattern naming an output folder itself is taken as written, like a file
    pages = [i.uri for i in iter_inputs([str(root / "scans" / "b-out" / "pages" / "*.png")])]
    assert [Path(uri).name for uri in pages] == ["001.png", "002.png"]


def test_batch_remote_prefix_skips_every_output() -> None:
    fs = fsspec.filesystem("memory")
    base = "/corpus"
    keys = ["a.pdf", "scans/b.png", "older/kept.pdf", "older/_batch/manifest.sqlite"]
    keys += [f"{folder}/{name}" for folder in ("out/a", "older/c") for name in OUTPUT_FILES]
    keys += ["stray/document.json", "stray/document.md", "stray/timings.json", "stray/p.png"]
    for key in keys:
        fs.pipe(f"{base}/{key}", b"x")
    try:
        found = [i.uri for i in iter_inputs([f"memory://{base}"], out=f"memory://{base}/out")]
        expected = ["a.pdf", "older/kept.pdf", "scans/b.png"]
        assert found == [f"memory://{base}/{key}" for key in expected]
    finally:
        fs.rm(base, recursive=True)
