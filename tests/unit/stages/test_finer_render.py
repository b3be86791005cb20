"""A block's region rendered afresh: it lines up with the page raster, has the pixels asked for,
and stays within 600 DPI and the pixel budget; a raster page has none to give."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pagereader.sources import InflateLimits, SourceDocument, open_source
from pagereader.stages.finer_render import MAX_RETRY_DPI, finer_scale, finer_size
from pagereader.stages.state import PageState

DECK = Path(__file__).parents[3] / "examples" / "deck.pdf"
SCAN = Path(__file__).parents[3] / "examples" / "scan.png"


def _open(path: Path, max_pixels: int = 64_000_000) -> SourceDocument:
    limits = InflateLimits.from_mb(256, 2048)
    return open_source(path, password=None, max_image_pixels=max_pixels, inflate_limits=limits)


def test_a_region_at_the_page_scale_is_the_raster_s_crop() -> None:
    source = _open(DECK)
    try:
        page = source.render(1, 150)
        assert page.region is not None
        box = (100.0, 50.0, 400.0, 200.0)
        fresh = np.asarray(page.region(box, page.scale).convert("L"), float)
        raster = np.asarray(page.image.convert("L"), float)
        x0, y0 = round(box[0] * page.scale), round(box[1] * page.scale)
        h, w = fresh.shape
        assert abs(w - (box[2] - box[0]) * page.scale) <= 2
        assert abs(h - (box[3] - box[1]) * page.scale) <= 2
        best = min(
            np.abs(raster[y0 + dy : y0 + dy + h, x0 + dx : x0 + dx + w] - fresh).mean()
            for dy in (-1, 0, 1)
            for dx in (-1, 0, 1)
        )
        assert best < 1.0 and fresh.std() > 20  # the same ink, not a blank region
        finer = page.region(box, page.scale * 3)
        assert abs(finer.width - (box[2] - box[0]) * page.scale * 3) <= 2
        assert abs(finer.height - (box[3] - box[1]) * page.scale * 3) <= 2
    finally:
        source.close()


def test_a_region_stays_within_the_pixel_budget() -> None:
    source = _open(DECK, max_pixels=1_000_000)
    try:
        page = source.render(1, 72)
        assert page.region is not None
        image = page.region((0.0, 0.0, page.width, page.height), 10.0)
        assert image.width * image.height <= 1_000_000
        assert image.width / image.height == pytest.approx(page.width / page.height, rel=0.01)
    finally:
        source.close()


def test_the_finer_scale_gives_the_pixels_asked_within_600_dpi() -> None:
    source = _open(DECK)
    try:
        page = source.render(1, 150)
        state = PageState(rendered=page)
        box = (200, 100, 400, 160)  # 200 x 60 raster pixels: 12,000
        scale = finer_scale(state, box, 48_000, 64_000_000)
        assert scale is not None and scale == pytest.approx(2 * page.scale, rel=0.01)
        assert finer_size(box, page.scale, scale) == (400, 120)
        capped = finer_scale(state, box, 100_000_000, 64_000_000)
        assert capped == pytest.approx(MAX_RETRY_DPI / 72)
        assert finer_scale(state, box, 12_000, 64_000_000) is None  # no more than it has
    finally:
        source.close()


def test_a_raster_page_has_no_finer_render() -> None:
    source = _open(SCAN)
    try:
        page = source.render(1, 150)
        assert page.region is None
        assert finer_scale(PageState(rendered=page), (0, 0, 100, 100), 10**6, 64_000_000) is None
    finally:
        source.close()
