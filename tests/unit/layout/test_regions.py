"""Layout-model regions merged with OCR line boxes on a synthetic scanned page."""

from __future__ import annotations

from pagereader.layout.line_text import block_text
from pagereader.layout.regions import merge_layout_regions
from pagereader.types import TextLine

W, H = 1240.0, 1754.0


def ocr(text: str, x0: float, y0: float, x1: float, height: float = 24.0) -> TextLine:
    return TextLine(text=text, bbox=(x0, y0, x1, y0 + height), confidence=0.95)


def test_regions_snap_relabel_and_leftovers() -> None:
    lines = [
        ocr("Quarterly Review", 150, 200, 700, height=48),
        ocr("본문의 첫 줄입니다", 150, 300, 1000),
        ocr("두 번째 줄입니다", 150, 332, 900),
        ocr("Name", 200, 600, 300),
        ocr("Total", 700, 600, 800),
        ocr("Table 1: Totals by team", 150, 900, 600),
        ocr("A stray line nobody boxed", 150, 1100, 700),
        ocr("3", 610, 1700, 630, height=20),
    ]
    regions = [
        ("title", (140.0, 190.0, 760.0, 260.0), 0.9),
        ("reference", (120.0, 280.0, 1100.0, 380.0), 0.8),
        ("reference", (125.0, 285.0, 1090.0, 375.0), 0.6),  # duplicate, lower score
        ("text", (180.0, 590.0, 820.0, 640.0), 0.5),  # text inside the table: dropped
        ("table", (150.0, 560.0, 1000.0, 850.0), 0.85),
        ("text", (140.0, 890.0, 700.0, 930.0), 0.7),  # really a caption
        ("figure", (150.0, 1200.0, 1000.0, 1500.0), 0.9),  # no lines: kept as is
        ("text", (100.0, 1550.0, 900.0, 1600.0), 0.9),  # empty text region: dropped
        ("title", (10.0, 10.0, 20.0, 20.0), 0.1),  # below min score
    ]
    blocks = merge_layout_regions(regions, lines, W, H)
    got = [(b.kind, b.bbox, block_text(b)) for b in blocks]
    assert got == [
        ("title", (150, 200, 700, 248), "Quarterly Review"),
        ("text", (150, 300, 1000, 356), "본문의 첫 줄입니다 두 번째 줄입니다"),
        ("table", (150, 560, 1000, 850), "Name Total"),
        ("caption", (150, 900, 600, 924), "Table 1: Totals by team"),
        ("text", (150, 1100, 700, 1124), "A stray line nobody boxed"),
        ("figure", (150, 1200, 1000, 1500), ""),
        ("footer", (610, 1700, 630, 1720), "3"),
    ]
    assert all(b.source == "ocr" for b in blocks)


def test_title_label_with_many_lines_is_text() -> None:
    lines = [
        ocr(f"line {i} of a long paragraph of body text", 150, 300 + 32 * i, 1000) for i in range(5)
    ]
    blocks = merge_layout_regions([("title", (140.0, 290.0, 1010.0, 460.0), 0.9)], lines, W, H)
    assert [(b.kind, len(b.lines)) for b in blocks] == [("text", 5)]


def test_line_goes_to_region_covering_most_of_it() -> None:
    lines = [ocr("left words", 100, 300, 500), ocr("right words", 700, 300, 1100)]
    regions = [
        ("text", (90.0, 290.0, 620.0, 340.0), 0.9),
        ("text", (600.0, 290.0, 1110.0, 340.0), 0.9),
    ]
    blocks = merge_layout_regions(regions, lines, W, H)
    assert [block_text(b) for b in blocks] == ["left words", "right words"]


def test_no_regions_falls_back_to_paragraphs() -> None:
    lines = [ocr("one", 100, 300, 500), ocr("two", 100, 330, 500)]
    blocks = merge_layout_regions([], lines, W, H)
    assert [(b.kind, block_text(b)) for b in blocks] == [("text", "one two")]
