"""The Engine protocol: one block request in, one Recognition out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from PIL import Image

from pagereader.types import Block, PageClass, Recognition, Script, Task, TextLine


@dataclass(frozen=True)
class BlockRequest:
    """Everything an engine may use to recognize one block.

    ``image`` is the block's crop from the page raster; ``page_lines`` is the page's trusted
    text layer (empty when the page has none) in page units; ``scale`` maps page units to the
    page raster's pixels.
    """

    file: str
    page: int
    block: Block
    task: Task
    image: Image.Image
    page_image: Image.Image
    scale: float
    page_class: PageClass
    script: Script
    min_pixels: int
    max_pixels: int
    page_lines: tuple[TextLine, ...] = ()
    crop_box_px: tuple[int, int, int, int] = (0, 0, 0, 0)
    metadata: dict[str, str] = field(default_factory=dict)


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


class Engine(Protocol):
    """A recognizer. Engines raise EngineError (or a subclass) when they cannot answer."""

    name: str

    async def recognize(self, request: BlockRequest) -> Recognition:
        """Recognize one block."""
        ...

    async def aclose(self) -> None:
        """Release clients and models."""
        ...
