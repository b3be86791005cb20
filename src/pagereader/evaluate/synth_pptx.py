"""The synthetic slide deck as PPTX: the same slides as the PDF deck, with speaker notes."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from collections.abc import Sequence
from pathlib import Path

from pptx import Presentation
from pptx.presentation import Presentation as PresentationType
from pptx.shapes.base import BaseShape
from pptx.util import Emu, Pt

from pagereader.evaluate import synth_text as corpus
from pagereader.evaluate.synth import chart_png
from pagereader.evaluate.synth_text import Slide, TableSpec
from pagereader.evaluate.truth import DocTruth, PageTruth

FIXED_DATE = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)


def _place(shape: BaseShape, left: int, top: int, width: int, height: int) -> None:
    """Move a placeholder onto the 16:9 slide (the default template is 4:3)."""
    shape.left, shape.top, shape.width, shape.height = Emu(left), Emu(top), Emu(width), Emu(height)


def _save_stable(deck: PresentationType, path: Path) -> None:
    """Save with fixed dates in the core properties and the zip, so reruns give equal bytes."""
    props = deck.core_properties
    props.title, props.created, props.modified = "Slide deck", FIXED_DATE, FIXED_DATE
    raw = io.BytesIO()
    deck.save(raw)
    with zipfile.ZipFile(raw) as source, zipfile.ZipFile(path, "w") as target:
        for item in source.infolist():
            info = zipfile.ZipInfo(item.filename, date_time=FIXED_DATE.timetuple()[:6])
            info.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(info, source.read(item.filename))


def write_pptx(
    path: Path, slides: Sequence[Slide], table: TableSpec | None = corpus.TABLE_SLIDE
) -> DocTruth:
    """The deck as PPTX (16:9) with speaker notes on every slide; truth holds text and notes."""
    deck = Presentation()
    deck.slide_width, deck.slide_height = Emu(12192000), Emu(6858000)
    pages: list[PageTruth] = []
    for slide in slides:
        page = deck.slides.add_slide(deck.slide_layouts[1])
        title, body = page.placeholders[0], page.placeholders[1]
        title.text_frame.text = slide.title
        _place(title, 600000, 400000, 11000000, 1200000)
        _place(body, 600000, 1800000, 11000000, 4500000)
        frame = body.text_frame
        frame.text = slide.bullets[0]
        for bullet in slide.bullets[1:]:
            frame.add_paragraph().text = bullet
        page.notes_slide.notes_text_frame.text = slide.notes
        text = "\n".join((slide.title, *slide.bullets))
        pages.append(PageTruth(page=len(pages) + 1, lang=slide.lang, text=text, notes=slide.notes))
    if table is not None:
        pages.append(_pptx_table_slide(deck, table, len(pages) + 1))
    _save_stable(deck, path)
    return DocTruth(file=path.name, pages=tuple(pages))


def _pptx_table_slide(deck: PresentationType, spec: TableSpec, number: int) -> PageTruth:
    """The table-and-figure slide in PPTX: a native table with merged header cells."""
    page = deck.slides.add_slide(deck.slide_layouts[5])
    page.shapes.title.text = spec.title
    n_cols = len(spec.columns) + 1
    shape = page.shapes.add_table(len(spec.rows) + 2, n_cols, Emu(600000), Emu(1900000),
                                  Emu(5400000), Emu(2800000))  # fmt: skip
    grid = shape.table
    grid.cell(0, 0).merge(grid.cell(1, 0))
    grid.cell(0, 1).merge(grid.cell(0, n_cols - 1))
    grid.cell(0, 0).text = spec.corner
    grid.cell(0, 1).text = spec.group
    for c, name in enumerate(spec.columns, start=1):
        grid.cell(1, c).text = name
    for r, row in enumerate(spec.rows, start=2):
        for c, value in enumerate(row):
            grid.cell(r, c).text = value
    totals = [float(v.replace(",", "")) for v in spec.rows[-1][1:]]
    page.shapes.add_picture(io.BytesIO(chart_png(totals)), Emu(6600000), Emu(1900000),
                            width=Emu(4900000))  # fmt: skip
    caption = page.shapes.add_textbox(Emu(6600000), Emu(5300000), Emu(4900000), Emu(500000))
    caption.text_frame.text = spec.caption
    caption.text_frame.paragraphs[0].runs[0].font.size = Pt(14)
    page.notes_slide.notes_text_frame.text = spec.notes
    lines = [spec.title, *spec.lines(), spec.caption]
    return PageTruth(page=number, lang="en", text="\n".join(lines), notes=spec.notes,
                     tables_html=(spec.html(),))  # fmt: skip
