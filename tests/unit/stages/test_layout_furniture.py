"""Blocks beside a running header or footer join it; body text does not."""

from __future__ import annotations

from pagereader.stages.layout import furniture_rows
from pagereader.types import Block, BlockKind, TextLine


def _block(kind: BlockKind, box: tuple[float, float, float, float], lines: int = 1) -> Block:
    line = TextLine(text="x", bbox=box)
    return Block(kind=kind, bbox=box, lines=(line,) * lines)


def test_page_number_beside_a_running_title_becomes_a_header() -> None:
    blocks = [
        _block("header", (60, 24, 110, 30)),
        _block("text", (28, 24, 36, 30)),
        _block("text", (140, 25, 158, 31)),
        _block("text", (28, 40, 158, 90), lines=6),
        _block("footer", (80, 280, 100, 286)),
        _block("text", (20, 200, 60, 206)),
    ]
    kinds = [b.kind for b in furniture_rows(blocks)]
    assert kinds == ["header", "header", "header", "text", "footer", "text"]


def test_a_footnote_over_a_slides_band_stays_text() -> None:
    """A slide's coloured band at the bottom is a picture in the margin (a footer); the footnote
    and the slide number printed over it are the slide's text."""
    band = Block(kind="footer", bbox=(0, 490, 720, 540), source="pdf-image")
    blocks = [
        band,
        _block("text", (300, 505, 500, 520)),
        _block("text", (690, 500, 700, 510)),
    ]
    assert [b.kind for b in furniture_rows(blocks)] == ["footer", "text", "text"]
