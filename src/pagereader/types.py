"""The data flow's types: what each stage takes and gives.

Coordinates: every bbox is ``(x0, y0, x1, y1)`` in page units with the origin at the top left.
For PDF pages a unit is a PDF point (1/72 inch); for image pages it is a pixel. A rendered
page carries ``scale`` (pixels per unit) so that a bbox maps onto its raster.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

BBox = tuple[float, float, float, float]
PageClass = Literal["digital", "scan", "dense", "native"]
BlockKind = Literal[
    "title", "text", "table", "figure", "formula", "caption", "header", "footer", "list"
]
Task = Literal["text", "table", "formula", "chart", "figure", "page", "context"]
Lang = Literal["en", "zh-Hant", "zh-Hans", "ko"]
Script = Literal["latin", "han", "hangul", "mixed", "unknown"]
Status = Literal["ok", "partial", "failed"]
VerdictOutcome = Literal["accept", "retry", "escalate", "fallback", "review"]
# the verifier's checks, most serious first (the order in which a fault decides the remedy)
CheckName = Literal[
    "empty",
    "truncation",
    "reasoning",
    "repetition",
    "script",
    "critical",
    "agreement",
    "table",
    "plausibility",
]
CHECK_NAMES: tuple[CheckName, ...] = get_args(CheckName)

BLOCK_KINDS: tuple[BlockKind, ...] = (
    "title",
    "text",
    "table",
    "figure",
    "formula",
    "caption",
    "header",
    "footer",
    "list",
)
TEXT_KINDS: frozenset[str] = frozenset({"title", "text", "caption", "header", "footer", "list"})


class Frozen(BaseModel):
    """Base of every data-flow type: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class TextLine(Frozen):
    """One line of text with its box: from the PDF text layer or from OCR detection."""

    text: str
    bbox: BBox
    font_size: float = 0.0
    confidence: float = 1.0
    char_boxes: tuple[BBox, ...] = ()  # one box per character of ``text`` when known
    starts_paragraph: bool = False  # known to open a paragraph (a label column's row)
    bold: bool = False  # set in a bold face from its first character to its last (text layer)


class TextLayerStats(Frozen):
    """What the text layer holds before any judgement of it."""

    chars: int = 0
    garbage_chars: int = 0
    unicode_map_errors: int = 0


class PageFeatures(Frozen):
    """Cheap per-page measurements the decision layer reads."""

    text_chars: int = 0
    text_coverage: float = 0.0
    garbage_ratio: float = 0.0
    image_fraction: float = 0.0
    line_count: int = 0
    median_font_size: float = 0.0
    small_font_share: float = 0.0
    ruling_lines: int = 0
    table_fraction: float = 0.0
    ink_fraction: float = 0.0


class PageDecision(Frozen):
    """The decision layer's verdict on a page: what work it needs, and why."""

    page_class: PageClass
    max_pixels: int
    min_pixels: int
    script: Script = "unknown"
    script_reason: str = ""
    text_engine: str = ""
    engine_reason: str = ""
    reasons: tuple[str, ...] = ()
    features: PageFeatures = Field(default_factory=PageFeatures)


class Block(Frozen):
    """A region of a page to recognize, in reading order."""

    kind: BlockKind
    bbox: BBox
    order: int = 0
    lines: tuple[TextLine, ...] = ()
    source: str = "textlayer"
    picture: str = ""  # a figure's pixel fingerprint (stages/pictures.py): recurring ones match


class TableCell(Frozen):
    """One cell of a rebuilt table grid."""

    row: int
    col: int
    row_span: int = 1
    col_span: int = 1
    text: str = ""
    bbox: BBox = (0.0, 0.0, 0.0, 0.0)


class Table(Frozen):
    """A table rebuilt as a grid: cells with spans, rendered as HTML or Markdown."""

    rows: int
    cols: int
    cells: tuple[TableCell, ...]
    header_rows: int = 0


class Recognition(Frozen):
    """What an engine answered for one block request."""

    text: str = ""
    html: str | None = None
    confidence: float | None = None
    engine: str
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float = 0.0
    detail: str = ""
    http_status: int | None = None


class Finding(Frozen):
    """One problem the verifier found in an answer."""

    check: str
    message: str
    severity: Literal["info", "warn", "error"] = "warn"


class Verdict(Frozen):
    """The verifier's decision on a block and the findings behind it."""

    outcome: VerdictOutcome = "accept"
    findings: tuple[Finding, ...] = ()


AttemptCause = Literal[
    "refused", "rejected", "unreachable", "server", "timeout", "deadline", "engine", "internal"
]
"""Why an attempt failed: ``refused`` (the server refuses every request of this kind: a
missing flag, an unknown model, a bad key), ``rejected`` (this request only, e.g. a 400 on its
parameters or a 413), ``unreachable`` (no connection, or the circuit is open), ``server`` (5xx),
``timeout``, ``deadline`` (the page's budget ran out), ``engine`` (an embedded engine failed),
``internal`` (a bug)."""


class Attempt(Frozen):
    """One engine call made for a block (kept so the JSON shows fallbacks and failures).
    ``http_status`` is what a served engine's server answered (200 for an answer)."""

    engine: str
    ok: bool
    latency_s: float = 0.0
    error: str = ""
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    http_status: int | None = None
    cause: AttemptCause | None = None
    hint: str = ""


class MappedChars(Frozen):
    """A character the OCR read in a form the document does not use, the form written for it
    (Taiwan standard Traditional: 条 -> 條, 爲 -> 為), and how often in the block."""

    read: str
    written: str
    count: int = Field(ge=1)


class BlockResult(Frozen):
    """A recognized block: the block, its text (or table HTML), and how it was obtained."""

    block: Block
    text: str = ""
    html: str | None = None
    engine: str = ""
    confidence: float | None = None
    latency_s: float = 0.0
    finish_reason: str | None = None
    attempts: tuple[Attempt, ...] = ()
    verdict: Verdict = Field(default_factory=Verdict)
    level: int | None = Field(default=None, ge=1, le=6)
    """A heading's level, 1 (outermost) to 6; None for a block that is no heading."""
    heading_path: tuple[str, ...] = ()
    """Texts of the headings open above the block, outermost first (a heading's own text is
    not in its path); empty for running headers and footers."""
    mapped_chars: tuple[MappedChars, ...] = ()
    """Characters of the OCR's reading written in the document's standard forms (its text and
    lines hold the written forms); empty when none were, and for any text not read by OCR."""


class ErrorItem(Frozen):
    """A failure kept in the output instead of a silent gap."""

    file: str
    page: int | None = None
    stage: str
    message: str
    hint: str = ""

    def line(self) -> str:
        """One human line: file, page, what went wrong, what to do."""
        where = self.file if self.page is None else f"{self.file} page {self.page}"
        tail = f" ({self.hint})" if self.hint else ""
        return f"{where}: {self.message}{tail}"


class PageContext(Frozen):
    """The page context pass's answer: the page's title and a short summary."""

    title: str = ""
    summary: str = ""
    engine: str = ""
    error: str = ""


class StageTimes(Frozen):
    """Seconds per stage for one page; ``total`` is their sum."""

    stages: dict[str, float]
    total: float


class SlideInfo(Frozen):
    """What a slide deck says of one slide: its number, whether it is hidden, its layout."""

    number: int
    hidden: bool = False
    layout: str = ""
    shapes: int = 0


class DeckPicture(Frozen):
    """A picture whose image recurs on most slides (a logo, a master's emblem): deck
    furniture, kept here once instead of in every slide's prose."""

    sha1: str
    slides: tuple[int, ...]
    alt_text: str = ""


class DeckInfo(Frozen):
    """What a slide deck says of itself beyond its slides."""

    slides: int
    hidden_slides: tuple[int, ...] = ()
    recurring_pictures: tuple[DeckPicture, ...] = ()


class RecurringPicture(Frozen):
    """A picture whose pixels recur on most pages of a PDF or scan (a logo, a letterhead):
    read once and kept here, not in every page's prose."""

    fingerprint: str
    pages: tuple[int, ...]
    text: str = ""


class PageAnswerRecord(Frozen):
    """One whole-page request of a page route (``"scan.page"``) and what became of it.

    ``parsed``: the answer was read in ``dialect`` into blocks; ``used``: those blocks are the
    page's (false when the answer could not be read, or the engine failed, and the route's
    next engine or the block routes read the page). ``warnings`` are the parse's repairs and
    doubts (``code: detail``). ``raw`` is the answer as received, its first 32,000
    characters kept (``raw_chars`` is its whole length; a cut one ends with a note saying so).
    A failed call has its ``error``, ``cause`` and ``http_status`` as a block's attempt
    would."""

    engine: str
    dialect: str
    parsed: bool = False
    used: bool = False
    blocks: int = 0
    warnings: tuple[str, ...] = ()
    raw: str = ""
    raw_chars: int = 0
    error: str = ""
    cause: AttemptCause | None = None
    http_status: int | None = None
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float = 0.0


class PageResult(Frozen):
    """One page, recognized and assembled."""

    index: int
    width: float
    height: float
    decision: PageDecision | None = None
    blocks: tuple[BlockResult, ...] = ()
    notes: str = ""
    # an identical page (same pixels, text layer and options) whose result this page reuses:
    # its page number, and its document when that was another document or an earlier run
    duplicate_of: int | None = None
    duplicate_of_source: str | None = None
    context: PageContext | None = None
    markdown: str = ""
    errors: tuple[ErrorItem, ...] = ()
    warnings: tuple[str, ...] = ()
    timings: StageTimes | None = None
    slide: SlideInfo | None = None
    overlay_scale: float | None = None
    """Pixels of the page's overlay (pages/NNN.png) per page unit: a block's bbox times this is
    where the overlay draws it; None when the page was not rendered."""
    page_answers: tuple[PageAnswerRecord, ...] = ()
    """The whole-page requests of the page's page route, in the order they were sent; empty
    without a page route."""


NodeKind = Literal[
    "part",
    "chapter",
    "section",
    "subsection",
    "division",
    "article",
    "paragraph",
    "subparagraph",
    "item",
]
"""Levels of a statute or contract, outermost first: 編/편/Part, 章/장/Chapter, 節/절/Section,
款/관, 目, the article (條/조/Article), and inside it the numbered paragraph (①, (1)), the
subparagraph (一、, 1., (a)) and the item (（一）, 가., (i))."""


class StructureNode(Frozen):
    """A heading or an article of the document's structure, with where it was read.

    ``label`` is the number as printed (``第 30-1 條``, ``第十五條之一``, ``제4조의2``),
    ``number`` its normalized form (``30-1``, ``15-1``, ``4-2``), ``id`` stable across runs
    (``art-30-1``, ``chapter-2``, ``art-11/p2`` for its second paragraph). ``blocks`` are (page,
    block order) pairs, ``text`` the article's (or item's) text after its label and title,
    joined across page breaks."""

    kind: NodeKind
    label: str
    number: str
    id: str
    title: str = ""
    level: int
    deleted: bool = False
    pages: tuple[int, ...] = ()
    blocks: tuple[tuple[int, int], ...] = ()
    text: str = ""
    references: tuple[str, ...] = ()
    """Ids of the document's articles this text refers to (``依第 12 條``, ``제10조에 따라``,
    ``under Article 5``), in the order first referred to; an article the document does not
    hold is not listed."""
    children: tuple[StructureNode, ...] = ()


class ChunkBox(Frozen):
    """Where a chunk lies on one of its pages: ``bbox`` in page units (PDF points), and
    ``pixel_bbox`` in the pixels of that page's overlay (pages/NNN.png; None when the page has
    no raster)."""

    page: int
    bbox: BBox
    pixel_bbox: BBox | None = None


class Chunk(Frozen):
    """A piece of a document for a search index, with where it came from.

    ``id`` is stable across runs of the same document and options (``c0001``); ``text`` is
    Markdown; ``heading_path`` the headings it sits under, outermost first; ``article_id`` the
    structure tree's article it belongs to (``art-32``); ``pages`` the page numbers of
    document.json; ``boxes`` one per page; ``blocks`` (page, block order) pairs as in
    :class:`StructureNode`; ``picture_text`` those of its blocks that are figures whose text
    read inside the picture the chunk carries after the figure's marker although document.md
    may print only the marker; ``md_start``/``md_end`` the span of document.md it was read from
    (page-break comments and running headers inside it are not the chunk's text); ``tokens``
    its length in the configured tokenizer's tokens."""

    id: str
    text: str
    heading_path: tuple[str, ...] = ()
    article_id: str | None = None
    pages: tuple[int, ...]
    boxes: tuple[ChunkBox, ...]
    blocks: tuple[tuple[int, int], ...]
    picture_text: tuple[tuple[int, int], ...] = ()
    md_start: int
    md_end: int
    tokens: int


class DocumentResult(Frozen):
    """A parsed document: pages, errors and an overall status."""

    schema_version: str
    source: str
    status: Status
    page_count: int = 0
    pages: tuple[PageResult, ...] = ()
    errors: tuple[ErrorItem, ...] = ()
    warnings: tuple[str, ...] = ()
    markdown: str = ""
    deck: DeckInfo | None = None
    recurring_pictures: tuple[RecurringPicture, ...] = ()
    structure: tuple[StructureNode, ...] = ()
    """Headings and articles of a statute or contract, outermost first (empty for documents
    that number none)."""
