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
import re
import statistics
import subprocess
from collections.abc import Sequence

import numpy as np
from PIL import Image

from pagereader.engines.rapidocr import (
    Detection,
    crop_quad,
    detect,
    read_detection,
    recognize_crops,
)
from pagereader.engines.tesseract import read_line_strip, tesseract_lines
from pagereader.errors import EngineError
from pagereader.options import RapidOCREngineOptions
from pagereader.sources.base import RenderedPage
from pagereader.text import count_scripts
from pagereader.types import BBox, Script, TextLine

logger = logging.getLogger(__name__)

PAGE_LANGS: dict[str, str] = {"hangul": "kor"}
"""Tesseract models for whole-page reading, by script (only Hangul pages are read so)."""
MISSED_COVERAGE = 0.8
"""A detected line less covered than this by Tesseract's lines was missed by its layout."""
MERGED_HEIGHT = 1.6
"""A Tesseract line this many times taller than its usual line ran two rows together."""
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
    page: RenderedPage,
    script: Script,
    detection: Detection | None,
    options: RapidOCREngineOptions | None = None,
) -> list[TextLine]:
    """The page's lines in page units, read once. ``options`` with a finer detection than the
    decision layer's (small print on a big raster) replace its coarser detection for
    recognition: loose line boxes make the recognizer read 條 as 条."""
    options = options or RapidOCREngineOptions()
    if detection is not None and detection.size != page.image.size:
        detection = None
    if script in PAGE_LANGS:
        try:
            found = tesseract_lines(page.image, PAGE_LANGS[script], psm=3)
        except subprocess.TimeoutExpired as exc:
            raise EngineError(
                "Tesseract timed out reading the page",
                file=page.file,
                page=page.index,
                hint="check the page image (a huge or broken raster?) or pass --dpi lower",
            ) from exc
        if detection is not None:
            found = fill_missed(page.image, found, detection, PAGE_LANGS[script])
        found = restore_circled_numbers(
            page.image, found, detection.bboxes() if detection is not None else [], options
        )
    else:
        if detection is None or detection.side != options.det_limit_side_len:
            detection = detect(page.image, options)
        found = read_detection(page.image, detection, options)
    return [_scaled(line, page.scale) for line in found]


def _coverage(box: BBox, lines: Sequence[TextLine]) -> float:
    """Share of ``box``'s width covered by lines sharing its row."""
    height = box[3] - box[1]
    spans = sorted(
        (max(box[0], ln.bbox[0]), min(box[2], ln.bbox[2]))
        for ln in lines
        if min(box[3], ln.bbox[3]) - max(box[1], ln.bbox[1]) > 0.5 * height
    )
    covered, reach = 0.0, box[0]
    for start, end in spans:
        start = max(start, reach)
        if end > start:
            covered += end - start
            reach = end
    return covered / max(1.0, box[2] - box[0])


def fill_missed(
    image: Image.Image, lines: list[TextLine], detection: Detection, lang: str
) -> list[TextLine]:
    """Lines the detector found but Tesseract's page segmentation mostly missed (it takes a
    block of text for a picture now and then, or runs two rows into one much taller line),
    read again by Tesseract in one strip; their partial or merged readings give way."""
    if not lines:
        return lines
    usual = statistics.median(ln.bbox[3] - ln.bbox[1] for ln in lines)
    lines = [ln for ln in lines if ln.bbox[3] - ln.bbox[1] <= MERGED_HEIGHT * usual]
    missed = [
        index
        for index, box in enumerate(detection.bboxes())
        if box[2] - box[0] > 2 * (box[3] - box[1])
        and (
            _coverage(box, lines) < MISSED_COVERAGE
            or sum(_inside(ln, box) for ln in lines) >= 2  # one printed line cut in pieces
        )
    ]
    if not missed:
        return lines
    boxes = [detection.bboxes()[i] for i in missed]
    array = np.asarray(image.convert("RGB"))
    reread = read_line_strip(
        [Image.fromarray(crop_quad(array, q)) for q in detection.quads[missed]], lang
    )
    kept = [ln for ln in lines if not any(_inside(ln, box) for box in boxes)]
    added = [
        TextLine(text=text, bbox=box, confidence=confidence)
        for box, (text, confidence) in zip(boxes, reread, strict=True)
        if text
    ]
    logger.debug("%d lines missed by page segmentation read again", len(added))
    return sorted(kept + added, key=lambda ln: (ln.bbox[1], ln.bbox[0]))


_CIRCLED = re.compile(r"^[\u2460-\u2473]\s*\S?$")
CIRCLED_SCORE = 0.6
"""PP-OCR must read the glyph at a line's start as a circled number this surely (a piece of
the next glyph may follow it in the crop)."""


def restore_circled_numbers(
    image: Image.Image,
    lines: list[TextLine],
    detected: Sequence[BBox] = (),
    options: RapidOCREngineOptions | None = None,
) -> list[TextLine]:
    """Clause numbers (①, ②, ...) that Tesseract's Korean model misreads ("(2", "8", "•"),
    read again by PP-OCR, which knows them: the first glyph of every line, in one batch. Where
    PP-OCR reads one circled number, it replaces a first token without Hangul or goes before a
    first token with Hangul. A line starts where the detector's line around it starts, when
    that is further left (Tesseract sometimes drops the number altogether)."""
    if not lines:
        return lines
    array = np.asarray(image.convert("RGB"))
    crops = []
    for line in lines:
        x0, y0, _, y1 = (int(v) for v in line.bbox)
        starts = [box[0] for box in detected if _inside(line, box)]
        x0 = int(min([x0, *starts]))
        height = max(1, y1 - y0)
        crops.append(np.ascontiguousarray(array[y0:y1, max(0, x0 - 4) : x0 + int(1.2 * height)]))
    out = []
    for line, (text, score) in zip(lines, recognize_crops(crops, options), strict=True):
        if score >= CIRCLED_SCORE and _CIRCLED.match(text) and line.text.strip():
            text = text[0]
            first, _, rest = line.text.strip().partition(" ")
            if any("\uac00" <= ch <= "\ud7a3" for ch in first):
                rest = line.text.strip()
            line = line.model_copy(update={"text": f"{text} {rest}".strip()})
        out.append(line)
    return out


def off_script(text: str, script: Script) -> bool:
    """Whether a line's letters are mostly not the page's script."""
    if script not in ("latin", "han", "hangul"):
        return False
    counts = count_scripts([text])
    letters = sum(counts.values())
    return bool(letters >= 2 and counts[script] < 0.5 * letters)


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
