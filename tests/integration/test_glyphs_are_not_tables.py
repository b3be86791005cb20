"""A small image of one Chinese line (tesseract.js's test image, 320x180): the strokes of 體
and 中 are boxes that the ruling finder can take for little grids. Those grids sit inside the
line that holds them, so they are glyphs, not tables, and the line is read once."""

from __future__ import annotations

from pagereader.pipeline import parse
from pagereader.text.chars import normalize

from shared_data import shared_root

IMAGE = shared_root() / "eval" / "cjk_extras" / "tesseractjs_chinese_tra.png"


def test_a_line_of_big_glyphs_is_read_once() -> None:
    assert IMAGE.is_file(), f"{IMAGE} is missing: the shared evaluation data sits beside the repo"
    expected = IMAGE.with_name("tesseractjs_chinese_tra.expected.txt").read_text(encoding="utf-8")
    result = parse(IMAGE)
    (page,) = result.pages
    assert [b.block.kind for b in page.blocks] == ["title"]
    assert normalize(result.markdown) == normalize(expected) == "繁體中文測試"
