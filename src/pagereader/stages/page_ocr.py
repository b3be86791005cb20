"""A scan's text lines, read once for the whole page: layout groups them, recognition reuses them.

Chinese and Latin pages: the decision layer's PP-OCR detection, recognized line by line (no
second detection). Hangul pages: Tesseract's Korean model on the whole page (``--psm 3``; PP-OCR
has no Hangul), its lines with their boxes and confidences. Either way, noise goes before layout:
a line read with low confidence whose letters are not the page's script (Latin specks from
bleed-through on a Korean page) is dropped when no text region of the layout model holds it,
and dropped anywhere when its confidence is very low.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from pagereader.checks.text import count_scripts
from pagereader.engines.rapidocr import Detection, detect, read_detection
from pagereader.engines.tesseract import tesseract_lines
from pagereader.sources.base import RenderedPage
from pagereader.types import BBox, Script, TextLine

logger = logging.getLogger(__name__)

PAGE_LANGS: dict[str, str] = {"hangul": "kor"}
"""Tesseract models for whole-page reading, by script (only Hangul pages are read so)."""
NOISE_CONFIDENCE = 0.75
"""An off-script line under this confidence outside every text region is noise."""
JUNK_CONFIDENCE = 0.4
"""A line under this confidence is noise wherever it is."""
_TEXT_LABELS = frozenset({"text", "title", "reference", "header", "footer", "figure_caption"})


def _scaled(line: TextLine, factor: float) -> TextLine:
    b = line.bbox
    return line.model_copy(
        update={"bbox": (b[0] / factor, b[1] / factor, b[2] / factor, b[3] / factor)}
    )


def read_page_lines(
    page: RenderedPage, script: Script, detection: Detection | None
) -> list[TextLine]:
    """The page's lines in page units, read once."""
    if script in PAGE_LANGS:
        found = tesseract_lines(page.image, PAGE_LANGS[script], psm=3)
    else:
        if detection is None or detection.size != page.image.size:
            detection = detect(page.image)
        found = read_detection(page.image, detection)
    return [_scaled(line, page.scale) for line in found]


def off_script(text: str, script: Script) -> bool:
    """Whether a line's letters are mostly not the page's script."""
    if script not in ("latin", "han", "hangul"):
        return False
    counts = count_scripts([text])
    letters = sum(counts.values())
    return letters >= 2 and counts[script] < 0.5 * letters


def _inside(line: TextLine, box: BBox) -> bool:
    cx, cy = (line.bbox[0] + line.bbox[2]) / 2, (line.bbox[1] + line.bbox[3]) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]


def drop_noise(
    lines: Sequence[TextLine], regions: Sequence[tuple[str, BBox, float]], script: Script
) -> list[TextLine]:
    """The lines without noise: very low confidence anywhere, or low confidence and off-script
    outside the text regions (lines with no text are layout evidence and stay)."""
    text_boxes = [box for label, box, _ in regions if label in _TEXT_LABELS]
    kept = []
    for line in lines:
        if line.text.strip():
            if line.confidence < JUNK_CONFIDENCE:
                continue
            if (
                line.confidence < NOISE_CONFIDENCE
                and off_script(line.text, script)
                and not any(_inside(line, box) for box in text_boxes)
            ):
                continue
        kept.append(line)
    if len(kept) < len(lines):
        logger.debug("dropped %d noise lines of %d", len(lines) - len(kept), len(lines))
    return kept
