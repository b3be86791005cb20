"""The Engine protocol and the request it answers, low in the layers so that the runtime
can name the engines it holds (``Mapping[str, Engine]``).

An engine's facts live on its class: ``name`` (its route name), ``max_concurrency`` (requests
in flight at once), ``embedded`` (it reads the page's own signals in-process, the text layer or
the bundled OCR, so the verifier never checks it against those signals) and ``pixel_blind``
(more pixels cannot change its answer, so a retry with more pixels is pointless). The
registry, the recognize stage and the verifier read these attributes; no list repeats them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

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


class Engine(Protocol):
    """A recognizer. Engines raise EngineError (or a subclass) when they cannot answer."""

    name: str
    max_concurrency: int
    embedded: bool
    pixel_blind: bool

    async def recognize(self, request: BlockRequest) -> Recognition:
        """Recognize one block."""
        ...

    async def aclose(self) -> None:
        """Release clients and models."""
        ...


@runtime_checkable
class ServedEngine(Protocol):
    """An engine behind a server: it can be checked before any page is read, and it knows what
    a crop costs the served model, so the verifier can tell whether more pixels would change
    what the model sees."""

    name: str

    async def preflight(self, min_pixels: int, max_pixels: int) -> Exception | None:
        """One tiny request; the error the server gave, or None."""
        ...

    def visual_tokens(self, width: int, height: int, min_pixels: int, max_pixels: int) -> int:
        """Visual tokens of a crop of this size at these pixel bounds."""
        ...
