"""A line the text detector does not find is never read: on a real scanned statute page, a
text block taken out of the results leaves glyph-sized print outside every block, and the
check says where; with every block read it says nothing."""

from __future__ import annotations

import asyncio

import pytest

from pagereader.config.file import override
from pagereader.config.options import Options
from pagereader.pipeline import aparse
from pagereader.sources import open_source
from pagereader.stages.classify import analysis_copy
from pagereader.stages.missed_text import missed_text
from pagereader.types import BBox

from shared_data import shared

pytestmark = pytest.mark.slow  # real OCR on real scans


def _overlap(a: BBox, b: BBox) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h) / max(1e-9, (b[2] - b[0]) * (b[3] - b[1]))


SCANS = ["constitution_1987-scan-heavy.pdf", "N0030001-scan-light.pdf", "B0000001-scan-light.pdf"]


@pytest.mark.parametrize("name", SCANS)
def test_a_block_the_detector_missed_is_said(name: str) -> None:
    path = shared("eval", "real_legal", name)
    options = override(Options(), {("pages",): [1]}, "test")
    result = asyncio.run(aparse(path, options))
    (page,) = result.pages
    assert page.decision is not None and page.decision.page_class != "digital"
    assert not [w for w in page.warnings if "glyph-sized" in w]

    source = open_source(path, password=None, max_image_pixels=options.render.max_image_pixels)
    try:
        gray, unit_scale = analysis_copy(source.render(1, options.render.dpi))
    finally:
        source.close()
    blocks = list(page.blocks)
    assert missed_text(gray, unit_scale, blocks) is None
    text = [b for b in blocks if b.block.kind in ("text", "list") and len(b.block.lines) >= 2]
    dropped = max(text, key=lambda b: len(b.block.lines))
    missed = missed_text(gray, unit_scale, [b for b in blocks if b is not dropped])
    assert missed is not None and missed.marks >= 12
    assert _overlap(missed.bbox, dropped.block.bbox) > 0.8  # it points at the lost lines
    assert "a line may be missing" in missed.note()
