"""What every source gives the pipeline: rendered pages with their text layer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from PIL import Image

from pagereader.types import BBox, BlockResult, SlideInfo, TextLayerStats, TextLine


@dataclass(frozen=True)
class NativeSlide:
    """A slide (or a DOCX page) read from its own XML: its blocks already answered (exact
    text, tables, chart data) in reading order, in page units; the pipeline neither lays it out
    nor OCRs its text. ``info`` is None for a page of a text document."""

    results: tuple[BlockResult, ...]
    info: SlideInfo | None
    engine: str = "pptx"


@dataclass(frozen=True)
class RenderedPage:
    """One page as pixels plus whatever the file itself says about its text.

    ``width``/``height`` are in page units (PDF points, or pixels for images); ``scale`` is
    pixels of ``image`` per page unit;
    ``units_per_inch`` converts page units to physical size (72 for PDF, the DPI for images).
    ``render_notes`` say where the raster is coarser than asked, to stay within the pixel budget.
    """

    file: str
    index: int
    width: float
    height: float
    scale: float
    image: Image.Image
    lines: tuple[TextLine, ...] = ()
    stats: TextLayerStats = field(default_factory=TextLayerStats)
    invisible_text_share: float = 0.0
    image_boxes: tuple[BBox, ...] = ()
    image_digests: tuple[str, ...] = ()  # SHA-1 of each image object's bytes, or ""
    notes: str = ""
    units_per_inch: float = 72.0
    render_notes: tuple[str, ...] = ()
    native: NativeSlide | None = None
    blank: bool = False
    """``image`` is a blank page of the page's size, not a picture of it (an office file read
    from its XML with no renderer installed): no overlay is drawn on it."""
    region: Callable[[BBox, float], Image.Image] | None = None
    """A region of the page (page units) rendered afresh at a scale (pixels per page unit):
    more pixels than ``image`` holds, for a vector page; None where the raster is all there is."""


class SourceDocument(Protocol):
    """An opened input file; pages are 1-based."""

    path: Path
    page_count: int
    warnings: tuple[str, ...]
    """What the reader left out of the document as it opened it (an office file's outside
    references), for the document's warnings."""

    def render(self, index: int, dpi: int) -> RenderedPage:
        """Render page ``index`` (1-based) and read its text layer."""
        ...

    def close(self) -> None:
        """Release the file."""
        ...
