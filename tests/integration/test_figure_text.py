"""Text drawn over a picture on a digital slide is read once: from the text layer, not again by
the figure's OCR; text that is part of the picture's pixels is still read from the figure."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pagereader.pipeline import parse

OVERLAID = ("Revenue grew in every region", "Costs fell for the third year", "Hiring resumes")
IN_PIXELS = "HARBOUR VIEW"
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


def picture() -> Image.Image:
    """A textured photo-like background with a sign painted into its pixels."""
    rng = np.random.default_rng(7)
    y, x = np.mgrid[0:540, 0:960]
    base = np.stack(
        [120 + 80 * np.sin(x / 90), 140 + 60 * np.cos(y / 70), 160 + 40 * np.sin((x + y) / 120)],
        -1,
    )
    pixels = np.clip(base + rng.normal(0, 12, base.shape), 0, 255).astype(np.uint8)
    image = Image.fromarray(pixels)
    draw = ImageDraw.Draw(image)
    draw.rectangle((600, 420, 920, 500), fill=(250, 250, 245))
    draw.text((620, 440), IN_PIXELS, fill=(20, 20, 20), font=ImageFont.truetype(str(FONT), 36))
    return image


def slide(path: Path) -> None:
    """A 960x540 slide: a title above a picture, three lines drawn over the picture."""
    pdf = canvas.Canvas(str(path), pagesize=(960, 540))
    pdf.drawImage(ImageReader(picture()), 0, 0, 960, 470)
    pdf.setFont("Helvetica-Bold", 36)
    pdf.drawString(60, 490, "Quarterly results")
    pdf.setFillColorRGB(1, 1, 1)
    pdf.setFont("Helvetica-Bold", 30)
    for i, text in enumerate(OVERLAID):
        pdf.drawString(100, 360 - i * 70, text)
    pdf.save()


def test_text_over_a_picture_is_read_once(tmp_path: Path) -> None:
    path = tmp_path / "slide.pdf"
    slide(path)
    page = parse(path).pages[0]
    assert page.decision is not None and page.decision.page_class == "digital"
    markdown = page.markdown
    assert markdown.count("Quarterly results") == 1
    for text in OVERLAID:
        assert markdown.count(text) == 1, markdown
    figures = [b for b in page.blocks if b.block.kind == "figure"]
    assert len(figures) == 1
    assert not any(text.split()[0] in figures[0].text for text in OVERLAID)
    # the picture's own text is not in the text layer: the figure's OCR still reads it
    assert IN_PIXELS.replace(" ", "") in figures[0].text.replace(" ", "").upper()
