"""Synthetic documents with known text: digital PDFs with a real text layer, a PPTX with notes,
and scans of the PDFs at three degradation levels, each with its ground truth per page.

They are what pagereader is tested and demonstrated on, and what make_evalset.py turns into a
dataset in pagereader's own format (manifest.jsonl). Output is deterministic: reportlab runs
in invariant mode and every random effect is seeded from the file, page and level.
"""

from __future__ import annotations

import functools
import io
import logging
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from PIL import Image, ImageDraw
from reportlab.lib.pagesizes import A4, A5
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pagereader.evaluate import synth_text as corpus
from pagereader.evaluate.fonts import FONTS, LANG_FONT, find_font
from pagereader.evaluate.synth_text import LegalPage, Slide, TableSpec
from pagereader.evaluate.truth import DocTruth, PageTruth

logger = logging.getLogger(__name__)

SLIDE_SIZE = (960.0, 540.0)
_NO_LINE_START = set("，。、；：）」』！？")


@functools.cache
def register_fonts() -> None:
    """Register the TrueType fonts with reportlab once per process."""
    for name, (relative, package) in FONTS.items():
        pdfmetrics.registerFont(TTFont(name, str(find_font(relative, package)), subfontIndex=0))


def wrap(text: str, font: str, size: float, width: float, lang: str) -> list[str]:
    """Greedy line breaking: by character for Chinese, between words otherwise."""
    tokens = list(text) if lang == "zh-Hant" else re.findall(r"\S+\s*", text)
    lines: list[str] = []
    current = ""
    for token in tokens:
        candidate = (current + token).rstrip()
        too_wide = pdfmetrics.stringWidth(candidate, font, size) > width
        if current and too_wide and token not in _NO_LINE_START:
            lines.append(current.rstrip())
            current = token
        else:
            current += token
    if current.strip():
        lines.append(current.rstrip())
    return lines


class _Sheet:
    """One page being drawn, top-left coordinates, with its ground-truth lines in order."""

    def __init__(self, canvas: Canvas, size: tuple[float, float]) -> None:
        self.canvas = canvas
        self.width, self.height = size
        self.lines: list[str] = []
        self.furniture: list[str] = []

    def text(
        self,
        x: float,
        y: float,
        text: str,
        font: str,
        size: float,
        grey: float = 0.0,
        *,
        furniture: bool = False,
    ) -> None:
        """Draw one line with its baseline at ``y`` from the top, and record it (``furniture``:
        a running header or page number)."""
        self.canvas.setFillGray(grey)
        self.canvas.setFont(font, size)
        self.canvas.drawString(x, self.height - y, text)
        self.lines.append(text)
        if furniture:
            self.furniture.append(text)

    def paragraph(
        self, x: float, y: float, width: float, text: str, lang: str, size: float, leading: float
    ) -> float:
        """Draw wrapped text; return the baseline below its last line."""
        font = LANG_FONT[lang]
        for line in wrap(text, font, size, width, lang):
            self.text(x, y, line, font, size)
            y += leading
        return y

    def rule(self, x0: float, y0: float, x1: float, y1: float, width: float = 0.8) -> None:
        """Draw a straight line (table rulings, header rules)."""
        self.canvas.setLineWidth(width)
        self.canvas.line(x0, self.height - y0, x1, self.height - y1)


def _canvas(path: Path, size: tuple[float, float], title: str) -> Canvas:
    register_fonts()
    canvas = Canvas(str(path), pagesize=size, invariant=True)
    canvas.setTitle(title)
    canvas.setAuthor("pagereader synthetic documents")
    return canvas


def _finish(sheet: _Sheet, page: int, lang: str, tables: Iterable[str] = ()) -> PageTruth:
    sheet.canvas.showPage()
    return PageTruth(
        page=page,
        lang=lang,
        text="\n".join(sheet.lines),
        tables_html=tuple(tables),
        furniture=tuple(sheet.furniture),
    )


def draw_slide(sheet: _Sheet, slide: Slide) -> None:
    """A 16:9 slide: title, accent rule, bullets drawn as dots so that the text is the words."""
    title_font = "PR-Latin-Bold" if slide.lang == "en" else LANG_FONT[slide.lang]
    sheet.text(60, 90, slide.title, title_font, 34)
    sheet.canvas.setStrokeColorRGB(0.15, 0.35, 0.65)
    sheet.rule(60, 112, 900, 112, 3)
    y = 180.0
    for bullet in slide.bullets:
        sheet.canvas.setFillColorRGB(0.15, 0.35, 0.65)
        sheet.canvas.circle(72, sheet.height - y + 8, 5, stroke=0, fill=1)
        y = sheet.paragraph(92, y, 800, bullet, slide.lang, 24, 34) + 16


def chart_png(values: Sequence[float]) -> bytes:
    """A bar chart as a PNG, so that the page holds an image object and no extra text."""
    image = Image.new("RGB", (640, 420), "white")
    draw = ImageDraw.Draw(image)
    draw.line([(50, 20), (50, 380), (620, 380)], fill="black", width=3)
    top = max(values)
    step = 540 / len(values)
    for i, value in enumerate(values):
        x0 = 50 + step * i + step * 0.2
        height = 340 * value / top
        draw.rectangle([x0, 380 - height, x0 + step * 0.6, 379], fill=(40, 90, 170))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def draw_table(
    sheet: _Sheet, x: float, y: float, widths: Sequence[float], spec: TableSpec, size: float
) -> str:
    """A ruled grid whose corner cell spans two rows and group cell the other columns.

    Cells are drawn row by row so that the text layer follows the ground truth; returns HTML.
    """
    font = "PR-Latin"
    row_h = size * 2.0
    n_rows = len(spec.rows) + 2
    right = x + sum(widths)
    sheet.canvas.setStrokeGray(0)
    lefts = [x + sum(widths[:i]) for i in range(len(widths) + 1)]
    for r in range(n_rows + 1):
        start = lefts[1] if r == 1 else x
        sheet.rule(start, y + r * row_h, right, y + r * row_h)
    for i, left in enumerate(lefts):
        top = y + row_h if 1 < i < len(widths) else y
        sheet.rule(left, top, left, y + n_rows * row_h)

    def cell(col: int, row: float, text: str, bold: bool = False) -> None:
        baseline = y + row * row_h + row_h / 2 + size * 0.35
        sheet.text(lefts[col] + 5, baseline, text, "PR-Latin-Bold" if bold else font, size)

    start = len(sheet.lines)
    cell(0, 0.5, spec.corner, True)
    cell(1, 0, spec.group, True)
    for i, name in enumerate(spec.columns):
        cell(i + 1, 1, name, True)
    for r, row in enumerate(spec.rows):
        for c, value in enumerate(row):
            cell(c, r + 2, value)
    sheet.lines[start:] = spec.lines()
    return spec.html()


def draw_table_slide(sheet: _Sheet, spec: TableSpec) -> str:
    """Title, a ruled table with a merged header, and a bar chart with its caption."""
    sheet.text(60, 90, spec.title, "PR-Latin-Bold", 34)
    sheet.canvas.setStrokeColorRGB(0.15, 0.35, 0.65)
    sheet.rule(60, 112, 900, 112, 3)
    html = draw_table(sheet, 60, 160, (110, 95, 95, 95), spec, 16)
    totals = [float(v.replace(",", "")) for v in spec.rows[-1][1:]]
    chart = ImageReader(io.BytesIO(chart_png(totals)))
    sheet.canvas.drawImage(chart, 530, sheet.height - 420, width=370, height=243)
    sheet.text(530, 445, spec.caption, "PR-Latin", 13)
    return html


def write_deck_pdf(
    path: Path, slides: Sequence[Slide], table: TableSpec | None = corpus.TABLE_SLIDE
) -> DocTruth:
    """A digital slide deck: one page per slide, then the table-and-figure slide."""
    canvas = _canvas(path, SLIDE_SIZE, "Slide deck")
    pages: list[PageTruth] = []
    for slide in slides:
        sheet = _Sheet(canvas, SLIDE_SIZE)
        draw_slide(sheet, slide)
        pages.append(_finish(sheet, len(pages) + 1, slide.lang))
    if table is not None:
        sheet = _Sheet(canvas, SLIDE_SIZE)
        html = draw_table_slide(sheet, table)
        pages.append(_finish(sheet, len(pages) + 1, "en", [html]))
    canvas.save()
    return DocTruth(file=path.name, pages=tuple(pages))


_FOOTER = {
    "en": "Page {n} of {total}",
    "zh-Hant": "第 {n} 頁，共 {total} 頁",
    "ko": "{n} / {total} 쪽",
}


def write_legal_pdf(path: Path, legal_pages: Sequence[LegalPage]) -> DocTruth:
    """A4 legal pages: running header with a rule, optional title, articles, page footer."""
    canvas = _canvas(path, A4, "Legal text")
    pages: list[PageTruth] = []
    for n, legal in enumerate(legal_pages, start=1):
        sheet = _Sheet(canvas, A4)
        font = LANG_FONT[legal.lang]
        sheet.text(60, 42, legal.header, font, 9, grey=0.3, furniture=True)
        sheet.rule(60, 50, A4[0] - 60, 50, 0.5)
        y = 95.0
        if legal.title:
            sheet.text(60, y, legal.title, font if legal.lang != "en" else "PR-Latin-Bold", 17)
            y += 36
        for paragraph in legal.paragraphs:
            y = sheet.paragraph(60, y, A4[0] - 120, paragraph, legal.lang, 11.5, 19) + 9
        footer = _FOOTER[legal.lang].format(n=n, total=len(legal_pages))
        width = pdfmetrics.stringWidth(footer, font, 9)
        sheet.text((A4[0] - width) / 2, A4[1] - 36, footer, font, 9, grey=0.3, furniture=True)
        pages.append(_finish(sheet, n, legal.lang))
    canvas.save()
    return DocTruth(file=path.name, pages=tuple(pages))


def write_two_column_pdf(path: Path) -> DocTruth:
    """An English page in two columns; the content stream interleaves the columns line by line,
    so only a reader that finds the gutter gets column 1 then column 2."""
    canvas = _canvas(path, A4, "Two columns")
    sheet = _Sheet(canvas, A4)
    sheet.text(60, 42, corpus.TWO_COLUMN_HEADER, "PR-Latin", 9, grey=0.3)
    sheet.text(60, 90, corpus.TWO_COLUMN_TITLE, "PR-Latin-Bold", 18)
    col_w, size, leading = 225.0, 10.5, 15.0

    def column(paragraphs: Sequence[str]) -> list[tuple[float, str]]:
        placed, y = [], 130.0
        for paragraph in paragraphs:
            for line in wrap(paragraph, "PR-Latin", size, col_w, "en"):
                placed.append((y, line))
                y += leading
            y += 8
        return placed

    left, right = column(corpus.TWO_COLUMN_LEFT), column(corpus.TWO_COLUMN_RIGHT)
    head = list(sheet.lines)
    for i in range(max(len(left), len(right))):
        for x, side in ((60.0, left), (60.0 + col_w + 25, right)):
            if i < len(side):
                sheet.text(x, side[i][0], side[i][1], "PR-Latin", size)
    sheet.lines = head + [line for _, line in left] + [line for _, line in right]
    sheet.text(A4[0] / 2 - 4, A4[1] - 36, "7", "PR-Latin", 9, grey=0.3)
    truth = DocTruth(file=path.name, pages=(_finish(sheet, 1, "en"),))
    canvas.save()
    return truth


def write_dense_pdf(path: Path) -> DocTruth:
    """Small print: 6.5-pt lines filling an A4 page, the decision layer's `dense` case."""
    canvas = _canvas(path, A4, "Dense page")
    sheet = _Sheet(canvas, A4)
    sheet.text(40, 40, corpus.DENSE_TITLE, "PR-Latin-Bold", 9)
    y = 56.0
    for line in corpus.dense_lines(96):
        sheet.text(40, y, line, "PR-Latin", 6.5)
        y += 7.8
    truth = DocTruth(file=path.name, pages=(_finish(sheet, 1, "en"),))
    canvas.save()
    return truth


def write_table_pdf(path: Path) -> DocTruth:
    """A page that is one big ruled table (with a merged header) under a short title."""
    spec = corpus.big_table()
    canvas = _canvas(path, A4, "Table page")
    sheet = _Sheet(canvas, A4)
    sheet.text(50, 50, spec.title, "PR-Latin-Bold", 14)
    html = draw_table(sheet, 50, 70, (85, *([68.0] * len(spec.columns))), spec, 9)
    truth = DocTruth(file=path.name, pages=(_finish(sheet, 1, "en", [html]),))
    canvas.save()
    return truth


def write_mixed_pdf(path: Path) -> DocTruth:
    """An A5 page mixing English and Traditional Chinese paragraphs (the example scan)."""
    canvas = _canvas(path, A5, "Mixed page")
    sheet = _Sheet(canvas, A5)
    y = 60.0
    for i, (lang, text) in enumerate(corpus.MIXED_PAGE):
        size = 14.0 if i < 2 else 11.0
        y = sheet.paragraph(45, y, A5[0] - 90, text, lang, size, size * 1.6) + 8
    truth = DocTruth(file=path.name, pages=(_finish(sheet, 1, "en+zh-Hant"),))
    canvas.save()
    return truth


def deck_slides() -> tuple[Slide, ...]:
    """The deck's language slides: the first slide of each language, in corpus order."""
    return tuple(corpus.SLIDES[lang][0] for lang in corpus.LANGS)
