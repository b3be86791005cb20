"""What makes two pages the same page: their pixels, and what the file says besides them.

The page reuse within a document and the cross-document page store key on these digests.
"""

from __future__ import annotations

import hashlib

from pagereader.sources.base import RenderedPage

_DIGEST_ROWS = 256


def raster_digest(page: RenderedPage) -> str:
    """SHA-256 of a page's pixels: identical slides (a repeated divider, a template page) have
    the same digest whatever their position in the deck. Hashed a band of rows at a time, so
    a page at the pixel budget costs no second copy of itself. A blank page (one read from its
    XML with no renderer) is told apart by its blocks, as its pixels are all alike."""
    image = page.image
    digest = hashlib.sha256(f"{image.size}{image.mode}".encode())
    if page.blank:
        native = page.native.results if page.native is not None else ()
        digest.update(repr(native).encode())
        return digest.hexdigest()
    for top in range(0, image.height, _DIGEST_ROWS):
        band = image.crop((0, top, image.width, min(image.height, top + _DIGEST_ROWS)))
        digest.update(band.tobytes())
    return digest.hexdigest()


def layer_digest(page: RenderedPage) -> str:
    """SHA-256 of what a page holds besides its pixels (its size in page units, text layer,
    image boxes, render notes): two pages with identical pixels but different hidden text
    are different pages to the cross-document lookup."""
    facts = (
        page.width,
        page.height,
        page.scale,
        page.units_per_inch,
        page.lines,
        page.stats,
        page.invisible_text_share,
        page.image_boxes,
        page.render_notes,
    )
    return hashlib.sha256(repr(facts).encode()).hexdigest()
