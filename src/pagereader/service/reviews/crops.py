"""The crop a reviewer checks a block against: cut from the clean page, outlined.

The page overlay (``pages/NNN.png``) carries every block's tag and outline; a crop cut from it
shows the block's own tag over its first characters and a neighbour's inside it, the very
characters to check. So the crop is cut from the page rendered afresh from the upload (the
service's own render settings), a frame drawn around it. The last pages rendered are kept, and
the last document opened (a slide deck's conversion takes seconds), so the crops of one page
cost one render.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from pathlib import Path

from PIL import Image, ImageDraw

from pagereader.config.options import Options
from pagereader.sources import InflateLimits, SourceDocument, open_source
from pagereader.types import BBox

CROP_MARGIN = 6
"""Pixels of the page kept around a block."""
FRAME = (220, 38, 38)
"""The outline's colour (the overlay's red)."""
_PAGES_KEPT = 2


class CleanPages:
    """Pages rendered afresh from their uploads, the last few kept; safe across threads."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self._lock = threading.Lock()
        self._pages: OrderedDict[tuple[str, int], tuple[Image.Image, float]] = OrderedDict()
        self._source: tuple[Path, SourceDocument] | None = None

    def _open(self, upload: Path) -> SourceDocument:
        if self._source is not None and self._source[0] == upload:
            return self._source[1]
        self.close()
        limits = self.options.limits
        source = open_source(
            upload,
            password=None,  # the service takes no passwords
            max_image_pixels=self.options.render.max_image_pixels,
            inflate_limits=InflateLimits.from_mb(
                limits.max_inflated_mb, limits.max_document_inflated_mb
            ),
        )
        self._source = (upload, source)
        return source

    def page(self, upload: Path, index: int) -> tuple[Image.Image, float]:
        """Page ``index`` of ``upload`` as pixels, and its pixels per page unit."""
        key = (str(upload), index)
        with self._lock:
            if key in self._pages:
                self._pages.move_to_end(key)
                return self._pages[key]
            rendered = self._open(upload).render(index, self.options.render.dpi)
            self._pages[key] = (rendered.image, rendered.scale)
            while len(self._pages) > _PAGES_KEPT:
                self._pages.popitem(last=False)
            return self._pages[key]

    def close(self) -> None:
        """Close the document held open (the lock is the caller's, or not needed)."""
        if self._source is not None:
            self._source[1].close()
            self._source = None


def block_crop(image: Image.Image, scale: float, bbox: BBox) -> bytes:
    """The block's region of a clean page with a margin, framed, as PNG."""
    x0, y0, x1, y1 = bbox
    box = (
        max(0, int(x0 * scale) - CROP_MARGIN),
        max(0, int(y0 * scale) - CROP_MARGIN),
        min(image.width, int(x1 * scale + 0.999) + CROP_MARGIN),
        min(image.height, int(y1 * scale + 0.999) + CROP_MARGIN),
    )
    crop = image.convert("RGB").crop(box)
    framed = Image.new("RGB", (crop.width + 4, crop.height + 4), FRAME)
    framed.paste(crop, (2, 2))
    ImageDraw.Draw(framed).rectangle((0, 0, framed.width - 1, framed.height - 1), outline=FRAME)
    buffer = io.BytesIO()
    framed.save(buffer, format="PNG")
    return buffer.getvalue()
