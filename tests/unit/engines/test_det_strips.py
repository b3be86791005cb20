"""Detection in strips: the cores tile the page, no strip passes the bound, and on a real scan
the strips find the lines the whole page does (the real PP-OCR detector, no stand-in)."""

from __future__ import annotations

import difflib
import itertools

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from pagereader.config.options import RapidOCREngineOptions
from pagereader.engines import det_strips, rapidocr
from pagereader.engines.det_strips import STRIP_OVERLAP, STRIP_PIXELS, scaled_size, strip_cores

from shared_data import shared

pytestmark = pytest.mark.slow  # seconds of real engines, servers or processes


@pytest.mark.parametrize("size", [(1600, 1600), (1600, 1248), (1216, 1600), (4096, 480)])
def test_the_cores_tile_the_page_and_each_strip_fits(size: tuple[int, int]) -> None:
    height, width = size
    cores = strip_cores(height, width)
    assert cores[0][0] == 0 and cores[-1][1] == height
    assert all(a[1] == b[0] for a, b in itertools.pairwise(cores))
    assert all(top % 32 == 0 for top, _ in cores)
    if height * width <= STRIP_PIXELS:
        assert cores == [(0, height)]
    else:
        assert len(cores) >= 2
        for top, bottom in cores:
            rows = min(height, bottom + STRIP_OVERLAP) - max(0, top - STRIP_OVERLAP)
            assert rows * width <= STRIP_PIXELS


def test_letter_and_a4_pages_at_1600_are_read_whole() -> None:
    for height, width in [(3300, 2550), (3508, 2480), (2550, 3300)]:
        assert len(strip_cores(*scaled_size(height, width, 1600))) == 1


def _whole_and_strips(
    image: Image.Image, options: RapidOCREngineOptions, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[str], list[str], int]:
    monkeypatch.setattr(det_strips, "STRIP_PIXELS", 10**12)
    whole = [line.text for line in rapidocr.ocr_lines(image, options)]
    monkeypatch.setattr(det_strips, "STRIP_PIXELS", STRIP_PIXELS)
    strips = [line.text for line in rapidocr.ocr_lines(image, options)]
    scaled = scaled_size(image.height, image.width, options.det_limit_side_len)
    return whole, strips, len(strip_cores(*scaled))


def test_a_square_scan_reads_the_same_in_strips(monkeypatch: pytest.MonkeyPatch) -> None:
    page = Image.open(shared("eval", "tesseract_test", "8071_093.3B.tif")).convert("RGB")
    square = Image.new("RGB", (max(page.size),) * 2, "white")
    square.paste(page, (0, 0))
    options = RapidOCREngineOptions(det_limit_side_len=1600)
    whole, strips, count = _whole_and_strips(square, options, monkeypatch)
    assert count == 2
    assert len(whole) > 100
    assert abs(len(strips) - len(whole)) <= 0.03 * len(whole)
    ratio = difflib.SequenceMatcher(None, "\n".join(whole), "\n".join(strips)).ratio()
    assert ratio > 0.95, ratio


def test_a_line_across_the_seam_is_found_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines drawn over the rows where two strips' cores meet: each is read once, whole."""
    side = 1600
    image = Image.new("RGB", (side, side), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=40)
    seam = strip_cores(side, side)[0][1]
    texts = [f"Line {n} crosses the seam between strips" for n in range(4)]
    for n, text in enumerate(texts):
        draw.text((80 + 380 * (n % 2), seam - 60 + 40 * n), text, fill="black", font=font)
    options = RapidOCREngineOptions(det_limit_side_len=side)
    whole, strips, count = _whole_and_strips(image, options, monkeypatch)
    assert count == 2
    assert sorted(strips) == sorted(whole)
    assert sorted(strips) == sorted(texts)


def test_an_empty_page_has_no_boxes() -> None:
    calls: list[tuple[int, ...]] = []

    def nothing(part: np.ndarray, limit: int) -> np.ndarray:
        calls.append(part.shape)
        return np.zeros((0, 4, 2), np.float32)

    boxes = det_strips.detect_in_strips(nothing, np.zeros((3200, 3200, 3), np.uint8), 1600)
    assert boxes.shape == (0, 4, 2)
    assert [shape[1] for shape in calls] == [1600, 1600]
