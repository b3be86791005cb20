"""Input files -> rendered pages. ``open_source`` picks the reader by the file's type."""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

from pagereader.errors import CorruptFileError, UnsupportedFormatError
from pagereader.sources.base import RenderedPage, SourceDocument
from pagereader.sources.image import IMAGE_SUFFIXES, ImageSource
from pagereader.sources.limits import (
    InflateLimits,
    apply_pillow_limit,
    check_image_pixels,
    open_bounded_image,
)
from pagereader.sources.office import (
    OFFICE_SUFFIXES,
    check_package,
    convert_to_pdf,
    read_slide_notes,
)
from pagereader.sources.pdf import PdfSource
from pagereader.types import DeckInfo

SUPPORTED_SUFFIXES = frozenset({".pdf"}) | IMAGE_SUFFIXES | OFFICE_SUFFIXES


def supported_types() -> str:
    """The file types pagereader reads, as every message that lists them writes them."""
    return ", ".join(sorted(SUPPORTED_SUFFIXES))


__all__ = [
    "SUPPORTED_SUFFIXES",
    "InflateLimits",
    "RenderedPage",
    "SourceDocument",
    "check_image_pixels",
    "open_bounded_image",
    "open_source",
    "supported_types",
]


class OfficeSource:
    """An office file read through its PDF conversion; pages carry the slide notes, and a
    PPTX deck's pages its slides read natively (sources/pptx_native.py)."""

    def __init__(
        self,
        path: Path,
        password: str | None,
        max_pixels: int,
        inflate_limits: InflateLimits,
        max_text_chars: int | None = None,
    ) -> None:
        self.path = path
        self.warnings: tuple[str, ...] = ()
        check_package(path, inflate_limits)
        self._tmp = tempfile.TemporaryDirectory(prefix="pagereader-office-")
        try:
            converted = convert_to_pdf(path, Path(self._tmp.name))
        except BaseException:
            self._tmp.cleanup()
            raise
        self.warnings = converted.warnings
        pdf = converted.pdf
        self._pdf = PdfSource(
            pdf, password, max_pixels, inflate_limits, name=path, max_text_chars=max_text_chars
        )
        self._pdf.path = path
        self.page_count = self._pdf.page_count
        self._notes = read_slide_notes(path)
        self._deck = None
        if path.suffix.lower() == ".pptx":
            from pagereader.sources.pptx_native import read_deck  # python-pptx only for decks

            self._deck = read_deck(path)
        self.deck: DeckInfo | None = self._deck.info if self._deck is not None else None

    def render(self, index: int, dpi: int) -> RenderedPage:
        page = self._pdf.render(index, dpi)
        native = None
        if self._deck is not None:
            native = self._deck.native(index, self.page_count, page.width, page.height)
        return dataclasses.replace(
            page, file=str(self.path), notes=self._notes.get(index, ""), native=native
        )

    def close(self) -> None:
        self._pdf.close()
        self._tmp.cleanup()


def open_source(
    path: Path,
    *,
    password: str | None,
    max_image_pixels: int,
    inflate_limits: InflateLimits | None = None,
    max_text_chars: int | None = None,
) -> SourceDocument:
    """Open ``path`` with the reader for its type, or raise an InputError naming the file.

    ``max_image_pixels`` bounds every raster of the document (see sources/limits.py); Pillow's
    own bomb guard is set to it too. ``inflate_limits`` (the defaults if not given) bound what
    a PDF's streams or an office file's parts may inflate to. A PDF page whose text layer has
    more than ``max_text_chars`` characters is not read past its count.
    """
    inflate_limits = inflate_limits or InflateLimits()
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise UnsupportedFormatError(
            f"unsupported file type {suffix or '(none)'!r}",
            file=path,
            hint=f"supported: {supported_types()}",
        )
    if not path.exists():
        raise CorruptFileError("file not found", file=path, hint="check the path")
    if path.stat().st_size == 0:
        raise CorruptFileError("the file is empty (0 bytes)", file=path)
    apply_pillow_limit(max_image_pixels)
    if suffix == ".pdf":
        return PdfSource(
            path, password, max_image_pixels, inflate_limits, max_text_chars=max_text_chars
        )
    if suffix in IMAGE_SUFFIXES:
        return ImageSource(path, max_image_pixels)
    return OfficeSource(path, password, max_image_pixels, inflate_limits, max_text_chars)
