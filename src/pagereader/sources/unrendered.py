"""PPTX and DOCX read from their XML alone, when no LibreOffice is installed.

The text is the file's own and exact, but nothing draws the pages: each page's ``image`` is a
blank raster of the page's size (so that every stage runs as for any page), marked ``blank``
so that no overlay is drawn on it and no picture is asked about, and the document carries a
warning that says what is missing and how to get it. Nothing here runs LibreOffice or loads
anything from outside the file (linked pictures stay unread).
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

from PIL import Image

from pagereader.errors import CorruptFileError
from pagereader.sources.base import NativeSlide, RenderedPage
from pagereader.sources.limits import BUDGET_KEY, fit_scale
from pagereader.sources.office import LIBREOFFICE_HINT, read_slide_notes
from pagereader.types import DeckInfo

EMU_PER_POINT = 12700.0


def no_renderer_warning(suffix: str) -> str:
    """The document's warning: what a parse without a renderer lacks, and the fix."""
    parts = "slides" if suffix == ".pptx" else "pages"
    return (
        f"LibreOffice not found: {parts} read from their XML only; no page pictures "
        f"(no overlays), pictures not OCRed; to add them, {LIBREOFFICE_HINT}"
    )


def blank_page(
    file: Path, index: int, size: tuple[float, float], dpi: int, max_pixels: int
) -> RenderedPage:
    """A white page of ``size`` points at ``dpi`` (coarser if the pixel budget says so)."""
    wanted = dpi / 72.0
    scale = fit_scale(size[0], size[1], wanted, max_pixels)
    pixels = (max(1, math.ceil(size[0] * scale)), max(1, math.ceil(size[1] * scale)))
    notes: tuple[str, ...] = ()
    if scale < wanted:
        notes = (f"blank page drawn at {scale * 72:.0f} DPI, within {BUDGET_KEY}",)
    return RenderedPage(
        file=str(file),
        index=index,
        width=size[0],
        height=size[1],
        scale=scale,
        image=Image.new("RGB", pixels, "white"),
        render_notes=notes,
        blank=True,
    )


class NativeDeckSource:
    """A PPTX deck's slides as pages, from its XML: one page a slide (hidden ones too), sized as
    the deck's slides."""

    def __init__(self, path: Path, max_pixels: int) -> None:
        from pagereader.sources.pptx_native import read_deck  # python-pptx only for decks

        deck = read_deck(path)
        if deck is None:
            raise CorruptFileError(
                "the deck's slides cannot be read from its XML", file=path, hint=LIBREOFFICE_HINT
            )
        self.path = path
        self.max_pixels = max_pixels
        self._deck = deck
        self.deck: DeckInfo | None = deck.info
        self.page_count = len(deck.slides)
        self.size = (deck.size[0] / EMU_PER_POINT, deck.size[1] / EMU_PER_POINT)
        self.warnings: tuple[str, ...] = (no_renderer_warning(".pptx"),)
        self._notes = read_slide_notes(path)

    def render(self, index: int, dpi: int) -> RenderedPage:
        page = blank_page(self.path, index, self.size, dpi, self.max_pixels)
        native = self._deck.native(index, self.page_count, *self.size)
        return dataclasses.replace(page, notes=self._notes.get(index, ""), native=native)

    def close(self) -> None:
        """Nothing is held open."""


class NativeDocxSource:
    """A DOCX document's pages from its XML (sources/docx_native.py says where pages break)."""

    def __init__(self, path: Path, max_pixels: int) -> None:
        from pagereader.sources.docx_native import read_docx  # lxml only for DOCX

        self.path = path
        self.max_pixels = max_pixels
        self._doc = read_docx(path)
        self.page_count = len(self._doc.pages)
        self.deck: DeckInfo | None = None
        self.warnings: tuple[str, ...] = (no_renderer_warning(".docx"),)

    def render(self, index: int, dpi: int) -> RenderedPage:
        page = blank_page(self.path, index, self._doc.size, dpi, self.max_pixels)
        native = NativeSlide(results=self._doc.pages[index - 1], info=None, engine="docx")
        return dataclasses.replace(page, native=native)

    def close(self) -> None:
        """Nothing is held open."""


def open_unrendered(
    path: Path, suffix: str, max_pixels: int
) -> NativeDeckSource | NativeDocxSource:
    """The reader of a PPTX or DOCX (``suffix``: what its bytes are) without a renderer."""
    if suffix == ".pptx":
        return NativeDeckSource(path, max_pixels)
    return NativeDocxSource(path, max_pixels)
