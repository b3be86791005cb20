"""The one table of input formats: each suffix pagereader reads, its media type, which reader
opens it, and whether it is a deck of slides. Every list of supported types (the refusal's
hint, the folder walk, uploads, batch listings, doctor) is derived from it, so that adding a
format is one row here and its reader."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Reader = Literal["pdf", "image", "office"]


@dataclass(frozen=True)
class InputFormat:
    """One readable file type. ``native``: an office file read from its own XML when
    LibreOffice is missing; ``slides``: a deck, whose pages are slides."""

    suffix: str
    media_type: str
    reader: Reader
    native: bool = False
    slides: bool = False


_OOXML = "application/vnd.openxmlformats-officedocument"
FORMATS: tuple[InputFormat, ...] = (
    InputFormat(".pdf", "application/pdf", "pdf"),
    InputFormat(".png", "image/png", "image"),
    InputFormat(".jpg", "image/jpeg", "image"),
    InputFormat(".jpeg", "image/jpeg", "image"),
    InputFormat(".tif", "image/tiff", "image"),
    InputFormat(".tiff", "image/tiff", "image"),
    InputFormat(".webp", "image/webp", "image"),
    InputFormat(".bmp", "image/bmp", "image"),
    InputFormat(".pptx", f"{_OOXML}.presentationml.presentation", "office", True, True),
    InputFormat(".docx", f"{_OOXML}.wordprocessingml.document", "office", True),
    InputFormat(".ppt", "application/vnd.ms-powerpoint", "office", slides=True),
    InputFormat(".doc", "application/msword", "office"),
    InputFormat(".odp", "application/vnd.oasis.opendocument.presentation", "office", slides=True),
    InputFormat(".odt", "application/vnd.oasis.opendocument.text", "office"),
)

BY_SUFFIX: dict[str, InputFormat] = {f.suffix: f for f in FORMATS}
SUPPORTED_SUFFIXES = frozenset(BY_SUFFIX)
IMAGE_SUFFIXES = frozenset(f.suffix for f in FORMATS if f.reader == "image")
OFFICE_SUFFIXES = frozenset(f.suffix for f in FORMATS if f.reader == "office")
NATIVE_SUFFIXES = frozenset(f.suffix for f in FORMATS if f.native)
"""Office files read from their own XML when LibreOffice is missing."""
SLIDE_SUFFIXES = frozenset(f.suffix for f in FORMATS if f.slides)


def supported_types() -> str:
    """The file types pagereader reads, as every message that lists them writes them."""
    return ", ".join(sorted(SUPPORTED_SUFFIXES))
