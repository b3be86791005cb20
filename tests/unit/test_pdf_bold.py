"""The text layer says which lines are set in bold, from the font's weight or, where the PDF
gives none, its name: a PDF written here with Helvetica-Bold and DejaVuSans-Bold lines among
regular ones (reportlab), read back through pypdfium2."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from pagereader.sources import open_source

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
LINES = [
    ("Helvetica-Bold", "A heading in Helvetica Bold"),
    ("Helvetica", "Body text in Helvetica regular"),
    ("DejaVuSans-Bold", "A heading in DejaVu Sans Bold"),
    ("DejaVuSans", "Body text in DejaVu Sans"),
]


def test_bold_lines_are_marked(tmp_path: Path) -> None:
    pdfmetrics.registerFont(TTFont("DejaVuSans", str(DEJAVU / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont("DejaVuSans-Bold", str(DEJAVU / "DejaVuSans-Bold.ttf")))
    path = tmp_path / "bold.pdf"
    sheet = canvas.Canvas(str(path), pagesize=A4)
    for row, (font, text) in enumerate(LINES):
        sheet.setFont(font, 11)
        sheet.drawString(72, 760 - 40 * row, text)
    sheet.setFont("Helvetica-Bold", 11)
    sheet.drawString(72, 520, "Run-in heading.")
    sheet.setFont("Helvetica", 11)
    sheet.drawString(160, 520, "Its paragraph goes on in regular type.")
    sheet.save()
    source = open_source(path, password=None, max_image_pixels=50_000_000)
    try:
        lines = source.render(1, 72).lines
    finally:
        source.close()
    bold = {line.text: line.bold for line in lines}
    assert bold == {text: "Bold" in font for font, text in LINES} | {
        "Run-in heading. Its paragraph goes on in regular type.": False
    }
