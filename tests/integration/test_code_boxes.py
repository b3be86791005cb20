"""A slide made by code (tests/fixtures/code_slides.py) with two boxes of code side by side,
scanned and read for real: the layout model takes both boxes for one picture, and its text is
read one box at a time, each top down, not row by row across the boxes."""

from __future__ import annotations

from pathlib import Path

from pagereader.evaluate.degrade import write_scans
from pagereader.pipeline import parse

from fixtures.code_slides import LEFT, RIGHT, write_code_slide


def test_side_by_side_boxes_of_code_are_read_one_box_at_a_time(tmp_path: Path) -> None:
    scan = tmp_path / "code-scan.pdf"
    write_scans(write_code_slide(tmp_path / "code.pdf"), scan, "light")
    text = " ".join(parse(scan).pages[0].markdown.split())
    firsts = [LEFT[0], LEFT[-1].strip(), RIGHT[0], RIGHT[-3]]
    places = [text.find(line) for line in firsts]
    assert all(p >= 0 for p in places), list(zip(firsts, places, strict=True))
    assert places == sorted(places), list(zip(firsts, places, strict=True))
