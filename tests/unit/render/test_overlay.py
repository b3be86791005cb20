"""Page overlays: a wide page is shrunk to 1000-1400 px wide (a whole factor, then bilinear
for what is left), and each block's outline lands on the block's place in the picture."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from pagereader.render.overlay import COLORS, draw_overlay, overlay_scale, overlay_width
from pagereader.types import Block, BlockResult


def _rgb(hex_color: str) -> tuple[int, int, int]:
    return tuple(int(hex_color[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("width", "expected"), [(1000, 1000), (1400, 1400), (1654, 1400), (2667, 1334), (4300, 1075)]
)
def test_overlay_is_1000_to_1400_wide_and_outlines_the_block(width: int, expected: int) -> None:
    scale = width / 720.0  # a 720-pt-wide page rendered ``width`` pixels wide
    page = Image.new("RGB", (width, width // 2), "white")
    block = Block(kind="table", bbox=(100.0, 100.0, 400.0, 300.0))
    overlay = draw_overlay(page, scale, [BlockResult(block=block, text="x")])

    assert overlay.width == expected
    pixels = np.asarray(overlay)
    k = scale * expected / width
    right, bottom = round(400 * k), round(300 * k)
    green = _rgb(COLORS["table"])
    # the right and bottom edges of the outline are drawn in the table's colour...
    assert tuple(pixels[round(200 * k), right - 1]) == green
    assert tuple(pixels[bottom - 1, round(250 * k)]) == green
    # ...and the page outside the block stays white
    assert tuple(pixels[bottom + 10, right + 10]) == (255, 255, 255)


def test_a_grey_page_gets_a_colour_overlay() -> None:
    page = Image.new("L", (3000, 1500), 255)
    block = Block(kind="title", bbox=(10.0, 10.0, 200.0, 60.0))
    overlay = draw_overlay(page, 3000 / 720.0, [BlockResult(block=block, text="T")])
    assert overlay.mode == "RGB"
    assert overlay.size == (1000, 500)


@pytest.mark.parametrize("width", [640, 1400, 1401, 1654, 1961, 2667, 2801, 4300, 5100])
def test_overlay_scale_is_where_the_drawn_overlay_puts_a_page_unit(width: int) -> None:
    """overlay_scale (what chunks.jsonl's pixel boxes use, with no picture at hand) agrees with
    the width of the overlay actually drawn."""
    scale = width / 612.0
    page = Image.new("RGB", (width, 40), "white")
    overlay = draw_overlay(page, scale, [])
    assert overlay_width(width) == overlay.width
    assert overlay_scale(width, scale) == pytest.approx(overlay.width / 612.0)
