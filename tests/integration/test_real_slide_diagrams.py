"""A real slide's diagram of boxes read as a slide: one stack of boxes, then the other.

Slide 10 of a real deck (../shared/eval/real_slides) maps a column of four labelled boxes onto
a column of five with arrows, over a backdrop picture. Read as one ruled table, its lists
interleaved row by row with empty cells where the rows do not meet."""

from __future__ import annotations

from pathlib import Path

import pagereader

from shared_data import shared


def test_two_stacks_of_boxes_are_read_one_stack_at_a_time(tmp_path: Path) -> None:
    pdf = shared("eval", "real_slides", "poi-alterman-security.pdf")
    result = pagereader.parse(pdf, pagereader.Options(pages=(10,)))
    page = result.pages[0]
    assert [b.block.kind for b in page.blocks].count("table") == 0
    text = " ".join(b.text for b in sorted(page.blocks, key=lambda b: b.block.order))
    left = [text.index(f"E-Auth Level {n}") for n in range(1, 5)]
    right = [text.index(label) for label in ("FPKI Rudimentary", "FPKI Basic", "FPKI High")]
    assert left == sorted(left) and right == sorted(right)
    assert max(left) < min(right)
