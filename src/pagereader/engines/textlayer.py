"""The PDF's own text inside a block's box: free, and exact on digital pages."""

from __future__ import annotations

from pagereader.engines.base import BlockRequest, EmbeddedEngine
from pagereader.errors import EngineError
from pagereader.layout.line_text import join_lines
from pagereader.types import BBox, Recognition, TextLine


def _inside(line: TextLine, box: BBox, slack: float = 1.0) -> bool:
    cx = (line.bbox[0] + line.bbox[2]) / 2
    cy = (line.bbox[1] + line.bbox[3]) / 2
    return box[0] - slack <= cx <= box[2] + slack and box[1] - slack <= cy <= box[3] + slack


class TextLayerEngine(EmbeddedEngine):
    """Answers from the text layer; refuses when the page has no trusted layer."""

    name = "textlayer"

    def __init__(self, options: object | None = None) -> None:
        self.options = options

    async def recognize(self, request: BlockRequest) -> Recognition:
        if not request.page_lines:
            raise EngineError(
                "no trusted text layer on this page", file=request.file, page=request.page
            )
        own = request.block.lines if request.block.source != "ocr" else ()
        lines = own or tuple(
            line for line in request.page_lines if _inside(line, request.block.bbox)
        )
        if not lines:
            raise EngineError(
                "the text layer has no text in this block", file=request.file, page=request.page
            )
        text = join_lines(lines, context=request.page_lines)  # the page's words judge hyphens
        return Recognition(text=text, engine=self.name, confidence=1.0)

    async def aclose(self) -> None:
        return None
