"""What every dialect parser shares: the frame that maps a model's coordinates back onto the
page, the parsed answer, the names of the repairs, and the label-to-kind table.

A whole-page model answers in coordinates of the image it saw: absolute pixels of the input
after the image processor's resize (Qwen2.5-VL, dots.ocr), or a 0-N grid over it (Qwen3-VL
0-1000, DeepSeek-OCR 0-999, Chandra as its prompt says). :class:`Frame` holds both sizes and
the convention, so every box lands in page units the same way.
"""

from __future__ import annotations

import re
from typing import cast

from pydantic import Field

from pagereader.pixels import smart_resize
from pagereader.types import BBox, Block, BlockKind, Frozen, Table

# the repairs and doubts a parse may report, each warning opening with one of these names
CODE_FENCE = "code-fence"
PREAMBLE = "preamble"
REPEATED = "repeated-answer"
UNCLOSED_LIST = "unclosed-list"
TRAILING_COMMAS = "trailing-commas"
INCOMPLETE_ELEMENT = "incomplete-element"
NESTED_TR = "nested-tr"
UNKNOWN_LABEL = "unknown-label"
NO_BOXES = "no-boxes"
BLOCK_WITHOUT_BOX = "block-without-box"
BOX_OUTSIDE_PAGE = "box-outside-page"
BOX_REVERSED = "box-reversed"
TABLE_AFTER_CAPTION = "table-after-caption"
CUT_AT_LENGTH = "cut-at-length"
NOT_IN_DIALECT = "not-in-dialect"

_OUTSIDE_TOLERANCE = 0.005
"""How far past the frame (a share of its side) a coordinate may reach before it is reported:
models round a box on the page's edge up by a pixel or a grid step."""


def warning(code: str, detail: str) -> str:
    """One warning line: the repair's name, then what was seen."""
    return f"{code}: {detail}"


class Frame(Frozen):
    """How a model's coordinates map onto the page.

    ``page_width``/``page_height`` are page units (PDF points, or pixels for an image page);
    ``input_width``/``input_height`` the pixels of the image the model saw after its resize;
    ``scale`` the coordinate convention: ``None`` for absolute pixels of that input, ``N`` for
    coordinates normalized to 0-N (1000 for Qwen3-VL and Chandra, 999 for DeepSeek-OCR).
    """

    page_width: float = Field(gt=0)
    page_height: float = Field(gt=0)
    input_width: int = Field(gt=0)
    input_height: int = Field(gt=0)
    scale: int | None = Field(default=None, gt=0)

    @classmethod
    def for_request(
        cls,
        page_size: tuple[float, float],
        image_size: tuple[int, int],
        *,
        factor: int,
        min_pixels: int,
        max_pixels: int,
        scale: int | None = None,
    ) -> Frame:
        """The frame of a request that sent an image of ``image_size`` (width, height) of a
        page of ``page_size`` to a server resizing by the Qwen rule (:func:`smart_resize`)."""
        height, width = smart_resize(image_size[1], image_size[0], factor, min_pixels, max_pixels)
        return cls(
            page_width=page_size[0],
            page_height=page_size[1],
            input_width=width,
            input_height=height,
            scale=scale,
        )

    @property
    def extent(self) -> tuple[float, float]:
        """The largest x and y a model can write in this convention."""
        if self.scale is None:
            return float(self.input_width), float(self.input_height)
        return float(self.scale), float(self.scale)

    @property
    def page(self) -> BBox:
        """The whole page as a box, for blocks whose answer gave none."""
        return (0.0, 0.0, self.page_width, self.page_height)

    def to_page(self, box: tuple[float, float, float, float]) -> tuple[BBox, list[str]]:
        """A model's box in page units, ordered and clipped into the page, with the warnings
        a reversed box or one reaching outside the frame deserves."""
        notes = []
        x0, y0, x1, y1 = box
        if x1 < x0 or y1 < y0:
            notes.append(warning(BOX_REVERSED, f"{list(box)} has its corners swapped"))
            x0, x1 = sorted((x0, x1))
            y0, y1 = sorted((y0, y1))
        max_x, max_y = self.extent
        slack_x, slack_y = max_x * _OUTSIDE_TOLERANCE, max_y * _OUTSIDE_TOLERANCE
        if x0 < -slack_x or y0 < -slack_y or x1 > max_x + slack_x or y1 > max_y + slack_y:
            notes.append(
                warning(
                    BOX_OUTSIDE_PAGE,
                    f"{list(box)} reaches outside 0..{max_x:g} x 0..{max_y:g}; clipped",
                )
            )
        sx, sy = self.page_width / max_x, self.page_height / max_y
        out = (
            min(max(x0 * sx, 0.0), self.page_width),
            min(max(y0 * sy, 0.0), self.page_height),
            min(max(x1 * sx, 0.0), self.page_width),
            min(max(y1 * sy, 0.0), self.page_height),
        )
        return out, notes


class AnswerBlock(Frozen):
    """One block of a parsed answer, in page units.

    ``text`` is what pagereader keeps as a block's text: a title without its ``#`` marks (its
    ``level`` apart), a list one item a line, a table as Markdown (HTML when a cell spans) with
    ``table`` and ``html`` beside it, a formula as LaTeX without delimiters, a figure's text
    (empty when the model gave none). ``located`` is false when the answer gave no box and
    ``bbox`` is the whole page."""

    kind: BlockKind
    label: str
    bbox: BBox
    located: bool = True
    text: str = ""
    level: int | None = Field(default=None, ge=1, le=6)
    table: Table | None = None
    html: str | None = None

    def as_block(self, order: int, source: str) -> Block:
        """The layout block this answer block stands for."""
        return Block(kind=self.kind, bbox=self.bbox, order=order, source=source)


class PageAnswer(Frozen):
    """A whole-page answer read in its dialect: the blocks in the model's reading order, every
    repair and doubt in ``warnings``, ``parsed`` false when nothing usable came out (``raw``
    is always the answer as received)."""

    dialect: str
    raw: str
    parsed: bool
    blocks: tuple[AnswerBlock, ...] = ()
    warnings: tuple[str, ...] = ()
    located: bool = False
    truncated: bool = False
    meta: dict[str, str] = Field(default_factory=dict)

    @property
    def repairs(self) -> frozenset[str]:
        """The names of the warnings (``unclosed-list``, ``trailing-commas``, ...)."""
        return frozenset(w.split(":", 1)[0] for w in self.warnings)


# --- labels -------------------------------------------------------------------------------

PAGE_NUMBER = "page-number"
"""Not a block kind of pagereader: a page number is furniture, a header or a footer by where
it stands."""

_SKIP = "skip"
"""Labels that stand for no content (a blank page)."""

KINDS: dict[str, str] = {
    "title": "title",
    "doc-title": "title",
    "section-header": "title",
    "sub-title": "title",
    "subtitle": "title",
    "heading": "title",
    "text": "text",
    "paragraph": "text",
    "plain-text": "text",
    "abstract": "text",
    "footnote": "text",
    "table-footnote": "text",
    "bibliography": "text",
    "reference": "text",
    "code-block": "text",
    "code": "text",
    "complex-block": "text",
    "form": "text",
    "table-of-contents": "text",
    "list": "list",
    "list-item": "list",
    "list-group": "list",
    "table": "table",
    "formula": "formula",
    "equation": "formula",
    "equation-block": "formula",
    "isolate-formula": "formula",
    "figure": "figure",
    "image": "figure",
    "picture": "figure",
    "diagram": "figure",
    "chart": "figure",
    "chemical-block": "figure",
    "caption": "caption",
    "image-caption": "caption",
    "table-caption": "caption",
    "figure-caption": "caption",
    "figure-title": "caption",
    "page-header": "header",
    "header": "header",
    "page-footer": "footer",
    "footer": "footer",
    "page-number": PAGE_NUMBER,
    "blank-page": _SKIP,
}
"""Every label the dialects' documentation and answers use, folded (lower case, ``-`` for
``_`` and spaces), onto pagereader's block kinds."""


def fold_label(label: str) -> str:
    """``Section-Header``, ``section_header`` and ``section header`` alike."""
    return re.sub(r"[\s_]+", "-", label.strip().lower())


def kind_of(
    label: str, documented: frozenset[str], bbox: BBox, frame: Frame
) -> tuple[BlockKind | None, list[str]]:
    """The block kind of a model's label (None for a label that stands for nothing), and a
    warning when the label is outside the dialect's ``documented`` set (folded labels)."""
    folded = fold_label(label)
    notes = []
    if folded not in documented:
        notes.append(warning(UNKNOWN_LABEL, f"{label!r} is not a documented label; read as text"))
    mapped = KINDS.get(folded, "text")
    if mapped == _SKIP:
        return None, notes
    if mapped == PAGE_NUMBER:
        middle = (bbox[1] + bbox[3]) / 2
        return ("header" if middle < frame.page_height / 2 else "footer"), notes
    return cast(BlockKind, mapped), notes
