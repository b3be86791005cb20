"""The Engine protocol and the request it answers, and the capabilities the decision layer
asks of the embedded engines (a line detector, a line reader), low in the layers so that the
runtime can name what it holds (``Mapping[str, Engine]``) and the stages never name an engine.

An engine's facts live on its class: ``name`` (its route name), ``max_concurrency`` (requests
in flight at once), ``embedded`` (it reads the page's own signals in-process, the text layer or
the bundled OCR, so the verifier never checks it against those signals) and ``pixel_blind``
(more pixels cannot change its answer, so a retry with more pixels is pointless). The
registry, the recognize stage and the verifier read these attributes; no list repeats them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, runtime_checkable

import numpy as np
from PIL import Image

from pagereader.types import BBox, Block, PageClass, Recognition, Script, Task, TextLine


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


def _quad_to_bbox(quad: np.ndarray) -> BBox:
    points = np.asarray(quad, dtype=float).reshape(-1, 2)
    return (
        float(points[:, 0].min()),
        float(points[:, 1].min()),
        float(points[:, 0].max()),
        float(points[:, 1].max()),
    )


@dataclass(frozen=True)
class Detection:
    """Text line quadrilaterals found on one image (its pixels), kept so that one detection
    serves the orientation probe, the layout and the recognition of a page."""

    size: tuple[int, int]
    quads: np.ndarray = field(default_factory=lambda: np.zeros((0, 4, 2), np.float32))
    side: int = 0
    """The detector's input side (``det_limit_side_len``) it was made at."""

    def bboxes(self) -> list[BBox]:
        """Each quad's axis-aligned box."""
        return [_quad_to_bbox(quad) for quad in self.quads]


class LineRead(NamedTuple):
    """One line crop's reading: its text and confidence, and how far into the crop (pixels
    from its left edge) the first word read starts, where the reader tells (None otherwise,
    and when nothing was read)."""

    text: str
    confidence: float
    lead: float | None = None


class LineDetector(Protocol):
    """Finds text lines on a page raster and cuts them out, straightened."""

    side: int
    """The input side it detects at (a Detection made at another side is made again)."""

    def detect(self, image: Image.Image) -> Detection:
        """The line quads of ``image``."""
        ...

    def crop(self, image: Image.Image, quads: np.ndarray) -> list[np.ndarray]:
        """The straightened RGB crop of each quad."""
        ...

    def load(self) -> None:
        """Load its models now rather than at the first call."""
        ...


class LineReader(Protocol):
    """Reads line crops in one script. ``name`` is the route name of the engine behind it;
    ``install`` says how to install it where ``available()`` is False."""

    name: str
    install: str

    def available(self) -> bool:
        """Whether it can read here (its program or models are installed)."""
        ...

    def read(self, crops: Sequence[np.ndarray]) -> list[LineRead]:
        """One reading per crop, in order, read together (one call)."""
        ...


def sort_lines(lines: list[TextLine]) -> list[TextLine]:
    """Top-down, then left-right for lines sharing a row (their vertical centres are close):
    the order every reader's page lines are given in."""
    ordered = sorted(lines, key=lambda ln: (ln.bbox[1] + ln.bbox[3]) / 2)
    rows: list[list[TextLine]] = []
    for line in ordered:
        mid = (line.bbox[1] + line.bbox[3]) / 2
        height = line.bbox[3] - line.bbox[1]
        if rows:
            last = rows[-1][-1]
            last_mid = (last.bbox[1] + last.bbox[3]) / 2
            if abs(mid - last_mid) < 0.5 * max(height, last.bbox[3] - last.bbox[1]):
                rows[-1].append(line)
                continue
        rows.append([line])
    return [line for row in rows for line in sorted(row, key=lambda ln: ln.bbox[0])]


def detected_lines(
    detection: Detection, reads: Sequence[LineRead], min_score: float = 0.5
) -> list[TextLine]:
    """The lines of a detection as read, in reading order. Lines read with a score under
    ``min_score`` keep their box with empty text: the box is still layout evidence, and
    another engine may read it."""
    lines = [
        TextLine(
            text=read.text if read.confidence >= min_score else "",
            bbox=box,
            confidence=read.confidence,
        )
        for box, read in zip(detection.bboxes(), reads, strict=True)
        if read.text.strip() or read.confidence < min_score
    ]
    return sort_lines(lines)
