"""The limits every input is read within: the one pixel budget (``render.max_image_pixels``)
every raster is checked against, and what compressed data may inflate to (``limits.*``).

A page raster is the largest image pagereader makes; crops, OCR inputs and overlays are cut from
it or shrunk from it, so bounding the page bounds them all. The check reads sizes from headers
(PDF page boxes, image headers) and happens before any pixel is allocated: a 100 KB PNG that
declares 13000x13000 pixels, or a 1 KB PDF with a 14400-point page, costs nothing to refuse or
to render smaller. Pillow's own decompression-bomb limit is set from the same budget, so a
configured budget above Pillow's default is honoured and a lower one is enforced by Pillow too.

Compressed data (a PDF's FlateDecode streams, an office file's zip members) declares no size
that can be trusted, so it is inflated here in pieces of a mebibyte and counted as it comes:
a stream that inflates to a gibibyte is refused after ``limits.max_inflated_mb`` of work and a
mebibyte of memory, before PDFium, python-pptx or LibreOffice is given the file.
"""

from __future__ import annotations

import io
import math
import warnings
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from PIL import Image, UnidentifiedImageError

from pagereader.config.options import DEFAULT_MAX_DOCUMENT_INFLATED_MB, DEFAULT_MAX_INFLATED_MB
from pagereader.errors import CorruptFileError, ImageTooLargeError, InflatesTooLargeError

BUDGET_KEY = "render.max_image_pixels"
INFLATED_KEY = "limits.max_inflated_mb"
DOCUMENT_INFLATED_KEY = "limits.max_document_inflated_mb"
MIB = 1024 * 1024
_PIECE = MIB


@dataclass(frozen=True)
class InflateLimits:
    """Bytes one stream or part (``part``) and all of one file's (``document``) may inflate to."""

    part: int = DEFAULT_MAX_INFLATED_MB * MIB
    document: int = DEFAULT_MAX_DOCUMENT_INFLATED_MB * MIB

    @classmethod
    def from_mb(cls, part_mb: int, document_mb: int) -> InflateLimits:
        """The limits as configured (``limits.max_inflated_mb``, ``..._document_...``)."""
        return cls(part=part_mb * MIB, document=document_mb * MIB)


def inflate(chunks: Iterable[bytes], wbits: int = zlib.MAX_WBITS) -> Iterator[bytes]:
    """The inflated data of the deflate stream at the start of ``chunks``, in pieces of at most
    a mebibyte, produced only as they are asked for (``wbits`` as for zlib: 15 for a zlib
    header, -15 for bare deflate). It ends with the stream, or quietly at damaged data: what a
    reader makes of damaged data is the reader's concern, this counts what it could inflate."""
    unpacker = zlib.decompressobj(wbits)
    try:
        for chunk in chunks:
            data = chunk
            while data and not unpacker.eof:
                piece = unpacker.decompress(data, _PIECE)
                if piece:
                    yield piece
                data = unpacker.unconsumed_tail
            if unpacker.eof:
                return
        rest = unpacker.flush()
        if rest:
            yield rest
    except zlib.error:
        return


def inflated_size(chunks: Iterable[bytes], limit: int, wbits: int = zlib.MAX_WBITS) -> int:
    """What a deflate stream inflates to, counted no further than the first piece past
    ``limit`` (so a result over ``limit`` means "too large", not the true size)."""
    size = 0
    for piece in inflate(chunks, wbits):
        size += len(piece)
        if size > limit:
            break
    return size


def _mib(size: int) -> str:
    return f"{size / MIB:g} MiB"


class InflateMeter:
    """Counts what one file's compressed data inflates to and refuses it, naming the file, the
    part and the limit's key, as soon as one part or all of them together pass a limit."""

    def __init__(self, limits: InflateLimits, *, file: str | Path, parts: str) -> None:
        self.limits = limits
        self.file = str(file)
        self.parts = parts
        self.total = 0

    def watch(self, pieces: Iterable[bytes], what: str) -> Iterator[bytes]:
        """``pieces`` passed on, refused once they add up past the per-part limit (for the
        intermediate stages of a chain of filters)."""
        size = 0
        for piece in pieces:
            size += len(piece)
            self._check_part(size, what)
            yield piece

    def add(self, pieces: Iterable[bytes], what: str) -> int:
        """Count the pieces of one part (stopping at the first past a limit); its size."""
        size = 0
        for piece in pieces:
            size += len(piece)
            self._check_part(size, what)
            self._check_document(self.total + size)
        self.total += size
        return size

    def add_size(self, size: int, what: str) -> None:
        """Count a part whose size is known without inflating it (stored, not compressed)."""
        self._check_part(size, what)
        self._check_document(self.total + size)
        self.total += size

    def _check_part(self, size: int, what: str) -> None:
        if size > self.limits.part:
            raise InflatesTooLargeError(
                f"{what} inflates past {_mib(self.limits.part)} ({INFLATED_KEY})", file=self.file
            )

    def _check_document(self, total: int) -> None:
        if total > self.limits.document:
            raise InflatesTooLargeError(
                f"its {self.parts} inflate past {_mib(self.limits.document)} together "
                f"({DOCUMENT_INFLATED_KEY})",
                file=self.file,
            )


def apply_pillow_limit(budget: int) -> None:
    """Make Pillow's bomb guard agree with the budget (Pillow refuses above twice its limit and
    warns above it; every raster pagereader asks of it is already within the budget)."""
    Image.MAX_IMAGE_PIXELS = budget


def check_pixels(
    width: int,
    height: int,
    budget: int,
    *,
    file: str | Path = "",
    page: int | None = None,
    what: str = "image",
) -> None:
    """Raise ImageTooLargeError when a ``width`` x ``height`` raster would exceed ``budget``."""
    pixels = max(0, width) * max(0, height)
    if pixels > budget:
        raise ImageTooLargeError(
            f"{what} is {width}x{height} = {pixels:,} pixels, over the limit of {budget:,} "
            f"({BUDGET_KEY})",
            file=file or None,
            page=page,
        )


def check_image_pixels(image: Image.Image, budget: int, *, file: str | Path = "") -> None:
    """Check an opened (not yet decoded) image's header size against the budget."""
    check_pixels(image.width, image.height, budget, file=file)


def fit_scale(width: float, height: float, scale: float, budget: int) -> float:
    """The largest scale not above ``scale`` at which a ``width`` x ``height`` page (in page
    units) rasterises to at most ``budget`` pixels, counting the rounding up of each side."""
    if width <= 0 or height <= 0:
        return scale
    if math.ceil(width * scale) * math.ceil(height * scale) <= budget:
        return scale
    low, high = 0.0, min(scale, math.sqrt(budget / (width * height)))
    for _ in range(60):  # bisection: the pixel count only grows with the scale
        middle = (low + high) / 2
        if math.ceil(width * middle) * math.ceil(height * middle) <= budget:
            low = middle
        else:
            high = middle
    return low


def open_bounded_image(
    source: bytes | Path | IO[bytes], budget: int, *, file: str = ""
) -> Image.Image:
    """Open an image, check its header size against the budget, and only then decode it.

    Raises ImageTooLargeError (over the budget) or CorruptFileError (not a readable image); the
    returned image is decoded and no longer needs ``source``.
    """
    label = file or (str(source) if isinstance(source, Path) else "")
    image = open_image_header(source, budget, file=label)
    try:
        check_image_pixels(image, budget, file=label)
        image.load()
    except ImageTooLargeError:
        image.close()
        raise
    except Exception as exc:  # Pillow's decoders raise many types for damaged data
        image.close()
        raise CorruptFileError(f"cannot decode image ({exc})", file=label or None) from exc
    return image


def open_image_header(
    source: bytes | Path | IO[bytes], budget: int, *, file: str = ""
) -> Image.Image:
    """Read an image's header (no pixels yet) with Pillow's bomb guard set to the budget."""
    apply_pillow_limit(budget)
    stream: Path | IO[bytes] = io.BytesIO(source) if isinstance(source, bytes) else source
    try:
        # Pillow warns between its limit and twice it; the caller's own check refuses those
        # with a clearer message, so the warning is noise (if threads race here, the worst
        # outcome is that this one warning stays silenced)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            return Image.open(stream)
    except Image.DecompressionBombError as exc:
        raise ImageTooLargeError(
            f"image too large to decode: {exc} ({BUDGET_KEY} is {budget:,})",
            file=file or None,
        ) from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise CorruptFileError(f"not a readable image ({exc})", file=file or None) from exc
    except Exception as exc:  # a damaged header can trip any of the format plugins
        raise CorruptFileError(f"not a readable image ({exc})", file=file or None) from exc
