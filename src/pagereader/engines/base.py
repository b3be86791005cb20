"""Engine helpers: the protocol's home re-exported, the embedded engines' shared facts, and the
crop of a block on the page raster.

The protocol itself is in protocols.py, below the runtime in the layers.
"""

from __future__ import annotations

from pagereader.protocols import BlockRequest, Engine

__all__ = ["BlockRequest", "EmbeddedEngine", "Engine", "crop_box"]


class EmbeddedEngine:
    """The facts shared by the in-process engines (text layer, grid, bundled OCR): they read the
    page's own signals, more pixels do not change their answers, and two run at a time (CPU
    bound on small machines)."""

    max_concurrency: int = 2
    embedded: bool = True
    pixel_blind: bool = True


def crop_box(
    bbox: tuple[float, float, float, float], scale: float, size: tuple[int, int], pad_px: int = 6
) -> tuple[int, int, int, int]:
    """The pixel box of a block on the page raster, padded and clipped."""
    width, height = size
    x0 = max(0, int(bbox[0] * scale) - pad_px)
    y0 = max(0, int(bbox[1] * scale) - pad_px)
    x1 = min(width, int(bbox[2] * scale + 0.999) + pad_px)
    y1 = min(height, int(bbox[3] * scale + 0.999) + pad_px)
    return (x0, y0, max(x1, x0 + 1), max(y1, y0 + 1))
