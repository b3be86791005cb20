"""A drop cap (a first letter three lines tall) stays in its column: its height is not the
line's, so the column beside it is not joined to its rows. A three-column journal page written
here with reportlab, the middle column opening with a drop cap, a gutter of under two ems."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas as pdf_canvas

from pagereader.layout.paragraphs import group_lines
from pagereader.sources import open_source

SIZE = 6.5
LEADING = 10.0
MIDDLE = [
    "ver the past three decades increasing",
    "pressure from non-governmental organi-",
    "sations (NGOs), governments and the",
    "United Nations, has required transnational",
    "corporations to examine and redress the",
    "adverse impact their businesses have.",
]
RIGHT = [
    "their impact on society was driven by pressures",
    "from the civil rights, peace, and environmental",
    "movements of the last half century. The",
    "unprecedented expansion of power and influ-",
    "ence of TNCs over the past three decades has",
    "accelerated global trade and development.",
]


def _page(path: Path) -> None:
    """Type scaled by the text matrix at size 1, as the journal's typesetter wrote it (PDFium
    then reads the drop cap and the first line as one line)."""
    sheet = pdf_canvas.Canvas(str(path), pagesize=A4)
    top, cap = 500.0, 4.6 * SIZE
    text = sheet.beginText()
    text.setFont("Times-Roman", 1)
    text.setTextTransform(cap, 0, 0, cap, 166, top - 2 * LEADING)  # baseline on the third line
    text.textOut("O")
    indent = 166 + stringWidth("O", "Times-Roman", cap) + 2
    for row, line in enumerate(MIDDLE):
        text.setTextTransform(SIZE, 0, 0, SIZE, indent if row < 3 else 166, top - row * LEADING)
        text.textOut(line)
    for row, line in enumerate(RIGHT):
        text.setTextTransform(SIZE, 0, 0, SIZE, 359, top - row * LEADING)
        text.textOut(line)
    sheet.drawText(text)
    sheet.save()


def test_a_drop_cap_keeps_the_column_beside_it_apart(tmp_path: Path) -> None:
    pdf = tmp_path / "journal.pdf"
    _page(pdf)
    source = open_source(pdf, password=None, max_image_pixels=50_000_000)
    try:
        page = source.render(1, 72)
    finally:
        source.close()
    blocks = group_lines(page.lines, page.height, page_width=page.width)
    texts = [" ".join(line.text for line in block.lines) for block in blocks]
    middle = next(t for t in texts if t.startswith("Over the past"))
    right = next(t for t in texts if t.startswith("their impact"))
    assert middle == "O" + " ".join(MIDDLE)
    assert right == " ".join(RIGHT)
    opening = next(line for line in page.lines if "ver the past" in line.text)
    assert opening.text.startswith("Over the past")
    assert opening.bbox[3] - opening.bbox[1] < 2 * SIZE  # the drop cap's height left out
