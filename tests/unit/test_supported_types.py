"""The supported file types are one list: the error for another type names every one the
readers take (the hint once listed 10 of the 14)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagereader.errors import UnsupportedFormatError
from pagereader.sources import open_source
from pagereader.sources.formats import (
    FORMATS,
    IMAGE_SUFFIXES,
    NATIVE_SUFFIXES,
    OFFICE_SUFFIXES,
    SUPPORTED_SUFFIXES,
)


def test_the_error_for_an_unknown_type_lists_every_supported_one(tmp_path: Path) -> None:
    notes = tmp_path / "notes.xyz"
    notes.write_text("plain text")
    with pytest.raises(UnsupportedFormatError) as raised:
        open_source(notes, password=None, max_image_pixels=1_000_000)
    hint = raised.value.to_item().hint or ""
    listed = {word.strip(",") for word in hint.split() if word.startswith(".")}
    assert listed == set(SUPPORTED_SUFFIXES) == {".pdf"} | IMAGE_SUFFIXES | OFFICE_SUFFIXES
    assert {".ppt", ".doc", ".odp", ".odt"} <= listed


def test_the_format_table_has_one_row_a_suffix_and_derives_every_list() -> None:
    suffixes = [f.suffix for f in FORMATS]
    assert len(suffixes) == len(set(suffixes)) == 14
    assert {".pptx", ".docx"} == NATIVE_SUFFIXES and NATIVE_SUFFIXES <= OFFICE_SUFFIXES
    assert IMAGE_SUFFIXES.isdisjoint(OFFICE_SUFFIXES)
    assert all(f.suffix.startswith(".") and "/" in f.media_type for f in FORMATS)
