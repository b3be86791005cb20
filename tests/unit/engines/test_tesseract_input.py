"""What Tesseract is sent on stdin: grey pixels as raw PGM (nothing to encode or decode),
colour as PNG; and Tesseract reads the grey page the same either way."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from pagereader.engines.tesseract import (
    clean_text,
    tesseract_available,
    tesseract_input,
    tesseract_text,
)

NANUM = Path("/usr/share/fonts/truetype/nanum/NanumMyeongjo.ttf")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _page(text: str, mode: str = "RGB", ink: str = "black") -> Image.Image:
    font = ImageFont.truetype(str(NANUM), 32)
    image = Image.new(mode, (760, 60), "white")
    ImageDraw.Draw(image).text((10, 10), text, font=font, fill=ink)
    return image


def test_grey_goes_as_pgm_and_colour_as_png() -> None:
    grey_rgb = _page("모든 국민은")
    assert tesseract_input(grey_rgb).startswith(b"P5\n760 60\n255\n")
    assert tesseract_input(_page("모든 국민은", mode="L")).startswith(b"P5\n")
    body = tesseract_input(grey_rgb).split(b"\n", 3)[3]
    assert body == grey_rgb.convert("L").tobytes()  # the pixels, unchanged
    coloured = _page("모든 국민은", ink="blue")
    assert tesseract_input(coloured).startswith(PNG_SIGNATURE)
    assert tesseract_input(coloured.convert("RGBA")).startswith(PNG_SIGNATURE)


@pytest.mark.skipif(not tesseract_available(), reason="needs Tesseract (kor)")
def test_tesseract_reads_the_pgm_as_it_reads_the_png_file(tmp_path: Path) -> None:
    image = _page("② 모든 국민은 양심의 자유를 가진다.")
    png = tmp_path / "line.png"
    image.save(png)
    done = subprocess.run(
        ["tesseract", str(png), "stdout", "-l", "kor", "--psm", "6"],
        capture_output=True,
        check=True,
        env={**os.environ, "OMP_THREAD_LIMIT": "1"},
    )
    from_file = done.stdout.decode().strip()
    assert "국민" in from_file
    assert tesseract_text(image, "kor") == clean_text(from_file)
