"""The state a page carries from stage to stage."""

from __future__ import annotations

from dataclasses import dataclass, field

from pagereader.protocols import Detection
from pagereader.sources.base import RenderedPage
from pagereader.stages.page_budget import PageBudget
from pagereader.types import (
    BBox,
    Block,
    BlockResult,
    ErrorItem,
    PageAnswerRecord,
    PageContext,
    PageDecision,
)


@dataclass
class PageState:
    """One page on its way through the stages; each stage fills its part."""

    rendered: RenderedPage
    decision: PageDecision | None = None
    trusted_text: bool = False
    table_boxes: list[BBox] = field(default_factory=list)
    detection: Detection | None = None
    """Text lines found on the page raster by the decision layer (reused by layout)."""
    blocks: list[Block] = field(default_factory=list)
    results: list[BlockResult] = field(default_factory=list)
    errors: list[ErrorItem] = field(default_factory=list)
    context: PageContext | None = None
    warnings: list[str] = field(default_factory=list)
    budget: PageBudget = field(default_factory=PageBudget)
    """The page's deadline and stop flag (see page_budget.py)."""
    page_answers: list[PageAnswerRecord] = field(default_factory=list)
    """The page route's whole-page requests (see page_read.py)."""
    read_whole: bool = False
    """The blocks and their text came from one whole-page answer: layout and recognize have
    nothing to add."""

    @property
    def file(self) -> str:
        return self.rendered.file

    @property
    def index(self) -> int:
        return self.rendered.index
