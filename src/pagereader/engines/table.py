"""``grid``: ruled tables rebuilt as a grid from their lines and the words inside the cells.

Words come from the text layer on digital pages and from the embedded OCR on scans. A block
without a ruled grid is refused, so the route falls through to plain text recognition.
"""

from __future__ import annotations

import asyncio
import time

import numpy as np

from pagereader.engines.base import BlockRequest
from pagereader.engines.rapidocr import ocr_lines
from pagereader.engines.tesseract import LANGS_BY_SCRIPT, tesseract_lines
from pagereader.errors import EngineError
from pagereader.layout.table_cells import fill_table
from pagereader.layout.table_grid import build_grid
from pagereader.options import RapidOCREngineOptions
from pagereader.render.table import table_to_html, table_to_markdown
from pagereader.types import Recognition, TextLine


def split_words(line: TextLine) -> list[TextLine]:
    """A text-layer line cut into words at spaces and wide gaps (cells sit side by side)."""
    if len(line.char_boxes) != len(line.text):
        return [line]
    words: list[TextLine] = []
    chars: list[str] = []
    boxes: list[tuple[float, float, float, float]] = []
    em = max(1.0, line.font_size)

    def flush() -> None:
        solid = [b for b, c in zip(boxes, chars, strict=True) if not c.isspace()]
        if solid:
            bbox = (min(b[0] for b in solid), min(b[1] for b in solid),
                    max(b[2] for b in solid), max(b[3] for b in solid))
            words.append(TextLine(text="".join(chars).strip(), bbox=bbox,
                                  font_size=line.font_size))
        chars.clear()
        boxes.clear()

    for ch, box in zip(line.text, line.char_boxes, strict=True):
        if ch.isspace() or (boxes and box[0] - boxes[-1][2] > 0.8 * em):
            flush()
            if ch.isspace():
                continue
        chars.append(ch)
        boxes.append(box)
    flush()
    return words


def _inside(line: TextLine, box: tuple[float, float, float, float]) -> bool:
    cx, cy = (line.bbox[0] + line.bbox[2]) / 2, (line.bbox[1] + line.bbox[3]) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]


class TableGridEngine:
    """Rebuilds a ruled table; answers HTML (JSON) and Markdown (text)."""

    name = "grid"

    def __init__(self, rapid: RapidOCREngineOptions | None = None) -> None:
        self._rapid = rapid or RapidOCREngineOptions()

    def _words(self, request: BlockRequest) -> list[TextLine]:
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
            ln.model_copy(update={"bbox": ((ln.bbox[0] + x0) / s, (ln.bbox[1] + y0) / s,
                                           (ln.bbox[2] + x0) / s, (ln.bbox[3] + y0) / s)})
            for ln in found
        ]

    def _rebuild(self, request: BlockRequest) -> Recognition:
        start = time.perf_counter()
        gray = np.asarray(request.page_image.convert("L"))
        x0, y0, x1, y1 = request.crop_box_px
        grid = build_grid(gray, (float(x0), float(y0), float(x1), float(y1)))
        if grid is None:
            raise EngineError("no ruled grid in this block", file=request.file, page=request.page)
        table = fill_table(grid, self._words(request), request.scale)
        if table.rows < 2 or table.cols < 2:
            raise EngineError(
                f"a {table.rows}x{table.cols} grid is a box, not a table",
                file=request.file, page=request.page,
            )
        if not any(cell.text for cell in table.cells):
            raise EngineError("the grid holds no text", file=request.file, page=request.page)
        return Recognition(
            text=table_to_markdown(table), html=table_to_html(table), engine=self.name,
            latency_s=time.perf_counter() - start, detail=f"{table.rows}x{table.cols} grid",
        )

    async def recognize(self, request: BlockRequest) -> Recognition:
        return await asyncio.to_thread(self._rebuild, request)

    async def aclose(self) -> None:
        return None
