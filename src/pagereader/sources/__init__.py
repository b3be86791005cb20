"""Input files -> rendered pages. ``open_source`` picks the reader by the file's type."""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
from pathlib import Path

from pagereader.errors import CorruptFileError, UnsupportedFormatError
from pagereader.sources.base import RenderedPage, SourceDocument
from pagereader.sources.formats import (
    IMAGE_SUFFIXES,
    NATIVE_SUFFIXES,
    SUPPORTED_SUFFIXES,
    supported_types,
)
from pagereader.sources.image import ImageSource
from pagereader.sources.limits import (
    InflateLimits,
    apply_pillow_limit,
    check_image_pixels,
    open_bounded_image,
)
from pagereader.sources.office import (
    check_package,
    convert_to_pdf,
    find_soffice,
    read_slide_notes,
)
from pagereader.sources.pdf import PdfSource
from pagereader.sources.sniff import mislabel_warning, mislabelled, sniff
from pagereader.sources.unrendered import open_unrendered
from pagereader.types import DeckInfo

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
    PPTX deck's pages its slides read natively (sources/pptx_native.py). ``kind``: the suffix
    its content has, where its name says otherwise (LibreOffice reads a copy so named)."""

    def __init__(
        self,
        path: Path,
        password: str | None,
        max_pixels: int,
        inflate_limits: InflateLimits,
        max_text_chars: int | None = None,
        kind: str | None = None,
    ) -> None:
        self.path = path
        self.warnings: tuple[str, ...] = ()
        check_package(path, inflate_limits)
        self._tmp = tempfile.TemporaryDirectory(prefix="pagereader-office-")
        try:
            if kind is not None and kind != path.suffix.lower():
                named = Path(self._tmp.name) / "named" / f"{path.stem}{kind}"
                named.parent.mkdir()
                path = Path(shutil.copyfile(path, named))
            converted = convert_to_pdf(path, Path(self._tmp.name))
        except BaseException:
            self._tmp.cleanup()
            raise
        self.warnings = converted.warnings
        pdf = converted.pdf
        self._pdf = PdfSource(
            pdf, password, max_pixels, inflate_limits, name=self.path, max_text_chars=max_text_chars
        )
        self._pdf.path = self.path
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

    The type is the content's, read from the first bytes (sources/sniff.py), where the name
    says otherwise: the document then carries a warning saying so. A PPTX or DOCX is read from
    its XML alone when LibreOffice is not installed (sources/unrendered.py).
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
    found = sniff(path)
    kind = suffix
    notes: tuple[str, ...] = ()
    if found is not None and mislabelled(suffix, found):
        kind, notes = found, (mislabel_warning(path, found),)
    source = _open(path, kind, password, max_image_pixels, inflate_limits, max_text_chars)
    source.warnings = notes + source.warnings
    return source


def _open(
    path: Path,
    kind: str,
    password: str | None,
    max_image_pixels: int,
    inflate_limits: InflateLimits,
    max_text_chars: int | None,
) -> SourceDocument:
    """The reader for content of type ``kind`` (a suffix)."""
    if kind == ".pdf":
        return PdfSource(
            path, password, max_image_pixels, inflate_limits, max_text_chars=max_text_chars
        )
    if kind in IMAGE_SUFFIXES:
        return ImageSource(path, max_image_pixels)
    if kind in NATIVE_SUFFIXES and find_soffice() is None:
        check_package(path, inflate_limits)
        return open_unrendered(path, kind, max_image_pixels)
    return OfficeSource(path, password, max_image_pixels, inflate_limits, max_text_chars, kind)
