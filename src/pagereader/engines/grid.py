"""``grid``: tables rebuilt as a grid, from their rules or from the alignment of their words.

Words come from the text layer on digital pages and from the embedded OCR on scans. A ruled
grid of at least two rows and two columns is filled with the words; otherwise (booktabs rules,
whitespace alone) the grid is inferred from the word positions. A block where neither yields
two rows and two columns is refused, so the route falls through to plain text recognition.
"""

from __future__ import annotations

import asyncio
import math
import time

import numpy as np
from PIL import Image

from pagereader.config.options import RapidOCREngineOptions
from pagereader.engines.base import BlockRequest, EmbeddedEngine
from pagereader.engines.rapidocr import ocr_lines
from pagereader.engines.tesseract import LANGS_BY_SCRIPT, tesseract_lines
from pagereader.errors import EngineError
from pagereader.layout.table_cells import fill_table
from pagereader.layout.table_grid import build_grid
from pagereader.layout.table_words import WORDS_SOURCE, split_words, words_table
from pagereader.text.tables import table_to_html, table_to_markdown, without_unused_columns
from pagereader.types import Recognition, Table, TextLine


def _inside(line: TextLine, box: tuple[float, float, float, float]) -> bool:
    cx, cy = (line.bbox[0] + line.bbox[2]) / 2, (line.bbox[1] + line.bbox[3]) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]


_GRID_MAX_PIXELS = 16_000_000


def _analysis_gray(page: Image.Image) -> tuple[np.ndarray, float]:
    """The page in grey for finding rules, and its pixels per page-raster pixel: a page over
    _GRID_MAX_PIXELS is shrunk first, so that the rule masks of a poster-sized table stay
    bounded (a letter page at 400 DPI is under it and keeps every pixel)."""
    k = min(1.0, math.sqrt(_GRID_MAX_PIXELS / max(1, page.width * page.height)))
    if k < 1.0:
        width = page.width
        page = page.resize((max(1, int(width * k)), max(1, int(page.height * k))), reducing_gap=2.0)
        k = page.width / width
    return np.asarray(page.convert("L")), k


class TableGridEngine(EmbeddedEngine):
    """Rebuilds a table as a grid; answers HTML (JSON) and Markdown (text)."""

    name = "grid"

    def __init__(self, rapid: RapidOCREngineOptions | None = None) -> None:
        self._rapid = rapid or RapidOCREngineOptions()

    def _words(self, request: BlockRequest) -> list[TextLine]:
        """The block's text-layer lines cut into words, or its OCR lines (page units)."""
        if request.page_lines:
            inside = [ln for ln in request.page_lines if _inside(ln, request.block.bbox)]
            return [w for ln in inside for w in split_words(ln)]
        x0, y0 = request.crop_box_px[0], request.crop_box_px[1]
        if request.script == "hangul":
            found = tesseract_lines(request.image, LANGS_BY_SCRIPT["hangul"], psm=6)
        else:
            found = ocr_lines(request.image, self._rapid)
        s = request.scale
        return [
            ln.model_copy(
                update={
                    "bbox": (
                        (ln.bbox[0] + x0) / s,
                        (ln.bbox[1] + y0) / s,
                        (ln.bbox[2] + x0) / s,
                        (ln.bbox[3] + y0) / s,
                    )
                }
            )
            for ln in found
        ]

    def _ruled(self, request: BlockRequest, words: list[TextLine]) -> Table | None:
        """The block's ruled grid with words, when its text fills two rows and two columns."""
        if request.block.source == WORDS_SOURCE:
            return None
        gray, k = _analysis_gray(request.page_image)
        x0, y0, x1, y1 = request.crop_box_px
        f = request.scale * k
        boxes = [
            (b[0] * f, b[1] * f, b[2] * f, b[3] * f)
            for w in words
            for b in (p.bbox for p in split_words(w))
        ]
        grid = build_grid(gray, (x0 * k, y0 * k, x1 * k, y1 * k), boxes)
        if grid.rows < 2 or grid.cols < 2:
            return None
        table = fill_table(grid, words, request.scale * k)
        filled = [cell for cell in table.cells if cell.text.strip()]
        if len({c.row for c in filled}) < 2 or len({c.col for c in filled}) < 2:
            return None  # one cell over the whole box: a frame, not a grid
        return table

    def _rebuild(self, request: BlockRequest) -> Recognition:
        start = time.perf_counter()
        words = self._words(request)
        table = self._ruled(request, words)
        how = "grid"
        if table is None:
            table = words_table([w for ln in words for w in split_words(ln)])
            how = "word grid"
        table = without_unused_columns(table) if table is not None else None
        if table is None or table.rows < 2 or table.cols < 2:
            raise EngineError(
                "neither rules nor word alignment make a grid of two rows and two columns here",
                file=request.file,
                page=request.page,
            )
        if not any(cell.text for cell in table.cells):
            raise EngineError("the grid holds no text", file=request.file, page=request.page)
        return Recognition(
            text=table_to_markdown(table),
            html=table_to_html(table),
            engine=self.name,
            latency_s=time.perf_counter() - start,
            detail=f"{table.rows}x{table.cols} {how}",
        )

    async def recognize(self, request: BlockRequest) -> Recognition:
        return await asyncio.to_thread(self._rebuild, request)

    async def aclose(self) -> None:
        return None
