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
