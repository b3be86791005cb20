"""Pictures in a PDF add text only where it is new and readable: a logo on every page is read
once into the document's metadata, a screenshot of the slide's own text adds nothing, a page of
pictures is not empty, and garbage read in a picture is dropped with a finding."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pagereader.pipeline import parse
from pagereader.types import DocumentResult

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
LOGO = "ACME ROBOTICS"
SHOWN = ("Revenue grew in every region", "Costs fell for the third year")
NOISE = "Xkcd Qwrtz Plmnb Vrtsk Zxcvb Hjklm"


def _drawn(size: tuple[int, int], lines: tuple[str, ...], points: int) -> Image.Image:
    image = Image.new("RGB", size, (250, 250, 245))
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(FONT), points)
    for i, line in enumerate(lines):
        draw.text((20, 20 + i * int(points * 1.6)), line, fill=(20, 20, 20), font=font)
    return image


def _gradient() -> Image.Image:
    y, x = np.mgrid[0:300, 0:500]
    pixels = np.stack([x / 2 % 256, y / 1.2 % 256, (x + y) / 4 % 256], -1).astype(np.uint8)
    return Image.fromarray(pixels)


def deck(path: Path) -> None:
    """Four 960x540 slides with the logo on each: text, a screenshot of the text, a page of
    pictures, and a picture of letters no language writes."""
    logo = ImageReader(_drawn((440, 120), (LOGO,), 44))
    pdf = canvas.Canvas(str(path), pagesize=(960, 540))

    def text(lines: tuple[str, ...]) -> None:
        pdf.setFont("Helvetica", 26)
        for i, line in enumerate(lines):
            pdf.drawString(60, 330 - i * 40, line)

    pdf.drawImage(logo, 20, 430, 220, 60)
    pdf.setFont("Helvetica-Bold", 36)
    pdf.drawString(300, 450, "Quarterly review")
    text(("Orders were shipped on time", "The new plant opened in May"))
    pdf.showPage()
    pdf.drawImage(logo, 20, 430, 220, 60)
    text(SHOWN)
    pdf.drawImage(ImageReader(_drawn((700, 200), SHOWN, 30)), 240, 20, 560, 160)
    pdf.showPage()
    pdf.drawImage(logo, 20, 430, 220, 60)
    pdf.drawImage(ImageReader(_gradient()), 230, 60, 500, 300)
    pdf.showPage()
    pdf.drawImage(logo, 20, 430, 220, 60)
    text(("Findings of the audit", "Every branch was visited"))
    pdf.drawImage(ImageReader(_drawn((800, 140), (NOISE,), 40)), 100, 20, 700, 120)
    pdf.save()


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> DocumentResult:
    path = tmp_path_factory.mktemp("pictures") / "deck.pdf"
    deck(path)
    return parse(path)


def test_a_logo_on_every_page_is_read_once_into_metadata(result: DocumentResult) -> None:
    for page in result.pages:
        assert "ACME" not in page.markdown, page.markdown
    assert "ACME" not in result.markdown
    logos = [p for p in result.recurring_pictures if "ACME" in p.text]
    assert len(logos) == 1
    assert set(logos[0].pages) >= {1, 2, 4}  # page 3, a scan, read the logo as OCR text


def test_a_screenshot_of_the_slides_own_text_adds_nothing(result: DocumentResult) -> None:
    page = result.pages[1]
    for line in SHOWN:
        assert page.markdown.count(line) == 1, page.markdown
    figures = [b for b in page.blocks if b.block.kind == "figure"]
    assert figures and all(not b.text for b in figures)


def test_a_page_of_pictures_is_not_empty(result: DocumentResult) -> None:
    assert result.pages[2].markdown.strip()
    assert "figure" in result.pages[2].markdown


def test_garbage_read_in_a_picture_is_dropped_with_a_finding(result: DocumentResult) -> None:
    page = result.pages[3]
    prose = re.sub(r"<!--.*?-->", "", page.markdown, flags=re.S)  # the review note quotes it
    assert "Qwrtz" not in prose and "Plmnb" not in prose, page.markdown
    figures = [b for b in page.blocks if b.block.kind == "figure"]
    dropped = [f for b in figures for f in b.verdict.findings if "left out" in f.message]
    assert dropped and dropped[0].severity == "warn"
    assert any(b.verdict.outcome == "review" for b in figures)
