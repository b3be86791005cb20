"""An earlier OCR's text hidden over a page image is not trusted: the page is read from its
pixels. Hidden means drawn in an invisible render mode, or painted fully transparent (as
note-taking apps hide their handwriting recognition); PDFs written here with reportlab."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas as pdf_canvas
from typer.testing import CliRunner

from pagereader.cli.main import app

RUNNER = CliRunner()
PAGE = (612, 792)
PRINTED = ("Quarterly safety review", "All exits were inspected on Monday.")
HIDDEN = ("Quartely satety reveiw", "AII exlts wre inspeted on Mondy")
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _page_image() -> Image.Image:
    """The page as a scanner saw it: the printed lines at 200 DPI."""
    scale = 200 / 72
    image = Image.new("RGB", (round(PAGE[0] * scale), round(PAGE[1] * scale)), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONT, 48)
    for row, line in enumerate(PRINTED):
        draw.text((200, 300 + 120 * row), line, fill="black", font=font)
    return image


def _scanned_pdf(path: Path, how: str) -> None:
    sheet = pdf_canvas.Canvas(str(path), pagesize=PAGE)
    sheet.drawImage(ImageReader(_page_image()), 0, 0, width=PAGE[0], height=PAGE[1])
    text = sheet.beginText(72, 680)
    text.setFont("Helvetica", 17)
    if how == "invisible":
        text.setTextRenderMode(3)
    else:
        sheet.setFillAlpha(0)
    for line in HIDDEN:
        text.textLine(line)
    sheet.drawText(text)
    sheet.save()


@pytest.mark.parametrize("how", ["invisible", "transparent"])
def test_a_hidden_ocr_layer_is_read_again_from_the_image(tmp_path: Path, how: str) -> None:
    pdf = tmp_path / "scan.pdf"
    _scanned_pdf(pdf, how)
    result = RUNNER.invoke(app, ["parse", str(pdf), "-o", str(tmp_path / "out"), "--no-resume"])
    assert result.exit_code == 0, result.output
    document = json.loads((tmp_path / "out" / "scan" / "document.json").read_text("utf-8"))
    decision = document["pages"][0]["decision"]
    assert decision["page_class"] == "scan"
    assert "invisible over a page image" in decision["reasons"][0]
    markdown = (tmp_path / "out" / "scan" / "document.md").read_text(encoding="utf-8")
    for line in PRINTED:
        assert line in markdown
    for line in HIDDEN:
        assert line not in markdown
