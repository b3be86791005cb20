"""Notebook ruling is no table: handwriting large enough to touch the rules above and below
its line draws strokes that look like column rules between two page-wide rules. Made by code
(a ruled page with lines of text sitting on the rules), then the olmOCR-bench sample's
handwritten notes on yellow ruled paper, and such a page photographed whole."""

from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
from PIL import Image, ImageDraw, ImageFont

from pagereader.evaluate.fonts import FONTS, find_font
from pagereader.layout.regions import merge_layout_regions
from pagereader.layout.table_grid import find_ruled_tables
from pagereader.types import TextLine

from shared_data import shared

PITCH = 64
LINES = (
    "Hello little kitten, bring the ball",
    "Tall hills held the old black kiln",
    "the blue heather fell",
)


def ruled_page(ruled: bool = True) -> np.ndarray:
    """A 1700x2200 page of evenly spaced rules with tall text sitting on every other rule."""
    page = Image.new("RGB", (1700, 2200), (250, 248, 225))  # yellow legal pad
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype(str(find_font(*FONTS["PR-Latin"])), 80)
    if ruled:
        for y in range(200, 2100, PITCH):
            draw.line([(40, y), (1660, y)], fill=(150, 170, 200), width=2)
    for i, text in enumerate(LINES):
        draw.text((120, 200 + PITCH * (2 * i + 3)), text, font=font, fill=(20, 20, 60), anchor="ls")
    return np.asarray(page.convert("L"))


def test_ruled_paper_is_no_table() -> None:
    assert find_ruled_tables(ruled_page()) == []


def test_a_ruled_table_on_the_same_page_is_still_found() -> None:
    page = ruled_page().copy()
    xs, ys = (300, 700, 1100, 1500), (1700, 1780, 1860, 1940)
    page[1650:2000, 250:1550] = 245  # a clear area, then a 3x3 ruled grid in it
    for y in ys:
        page[y - 1 : y + 2, xs[0] : xs[-1] + 1] = 0
    for x in xs:
        page[ys[0] : ys[-1] + 1, x - 1 : x + 2] = 0
    found = find_ruled_tables(page)
    assert len(found) == 1
    x0, y0, x1, y1 = found[0]
    assert abs(x0 - xs[0]) <= 5 and abs(x1 - xs[-1]) <= 5
    assert abs(y0 - ys[0]) <= 5 and abs(y1 - ys[-1]) <= 5


def test_handwritten_notes_on_ruled_paper() -> None:
    pdf = pdfium.PdfDocument(str(shared("eval", "olmocr_bench_sample", "pdfs", "mattsnotes.pdf")))
    for index in range(len(pdf)):
        page = pdf[index].render(scale=200 / 72).to_pil().convert("L")
        assert find_ruled_tables(np.asarray(page)) == [], index


def test_a_page_sized_figure_of_short_lines_is_read_as_text() -> None:
    """The layout model calls a photo of handwritten notes one figure the size of the page;
    its short lines (no prose sentence among them) are the page's text, not picture text."""

    notes = (
        "Data mixes",
        "Source code 85%",
        "Code text 10%",
        "Web text 5%",
        "Order by repo",
        "Pack into docs",
        "Select languages",
    )
    lines = [
        TextLine(text=t, bbox=(100.0, 200.0 + 120 * i, 100.0 + 30 * len(t), 250.0 + 120 * i))
        for i, t in enumerate(notes)
    ]
    blocks = merge_layout_regions([("figure", (5.0, 60.0, 1695.0, 2190.0), 0.9)], lines, 1700, 2200)
    assert [b.kind for b in blocks if b.kind == "figure"] == []
    assert " ".join(ln.text for b in blocks for ln in b.lines).split() == " ".join(notes).split()
