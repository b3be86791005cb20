"""A scan's text lines, read once for the whole page: layout groups them, recognition reuses them.

Every page's lines come from one PP-OCR detection (the decision layer's, or a finer one for
small print). Chinese and Latin lines are recognized by PP-OCR; Hangul lines by Tesseract's
Korean model (PP-OCR has no Hangul), the line crops stacked in strips that several Tesseract
processes read side by side: 2.4x faster than Tesseract reading the page itself (``--psm 3``)
on two cores, and no line its page segmentation overlooks. Either way, noise goes before layout:
a line read with low confidence whose letters are not the page's script (Latin specks from
bleed-through on a Korean page) is dropped when no text region of the layout model holds it,
and dropped anywhere when its confidence is very low.
"""

from __future__ import annotations

import logging
import re
import subprocess
from collections.abc import Collection, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from PIL import Image

from pagereader.config.options import RapidOCREngineOptions
from pagereader.errors import EngineError
from pagereader.protocols import (
    Detection,
    LineDetector,
    LineRead,
    LineReader,
    detected_lines,
    sort_lines,
)
from pagereader.runtime import Capabilities
from pagereader.sources.base import RenderedPage
from pagereader.stages.han_spans import read_han_spans
from pagereader.text.chars import count_scripts
from pagereader.types import BBox, Script, TextLine

logger = logging.getLogger(__name__)

STRIP_SCRIPTS: frozenset[Script] = frozenset({"hangul"})
"""Scripts whose page lines are read in strips by their reader (Tesseract's Korean model);
the others are read by theirs (PP-OCR) in one batch."""
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
    engines: Capabilities,
    options: RapidOCREngineOptions | None = None,
) -> list[TextLine]:
    """The page's lines in page units, read once. ``options`` with a finer detection than the
    decision layer's (small print on a big raster) replace its coarser detection for
    recognition: loose line boxes make the recognizer read 條 as 条."""
    options = options or RapidOCREngineOptions()
    detector = engines.line_detector(options)
    reader = engines.script_reader(script, options)
    if detection is not None and detection.size != page.image.size:
        detection = None
    if detection is None or detection.side != detector.side:
        detection = detector.detect(page.image)
    if script in STRIP_SCRIPTS:
        try:
            numbers = engines.script_reader("unknown", options)  # PP-OCR: ①, Han
            found, numbered = read_detected_lines(
                page.image, detection, detector, reader, workers=options.threads, han=numbers
            )
        except subprocess.TimeoutExpired as exc:
            raise EngineError(
                "Tesseract timed out reading the page",
                file=page.file,
                page=page.index,
                hint="check the page image (a huge or broken raster?) or pass --dpi lower",
            ) from exc
        found = restore_circled_numbers(page.image, found, numbers, detection.bboxes(), numbered)
    else:
        found = detected_lines(detection, reader.read(detector.crop(page.image, detection.quads)))
    return [_scaled(line, page.scale) for line in found]


def split_even(weights: Sequence[float], parts: int) -> list[tuple[int, int]]:
    """``parts`` contiguous index ranges of about equal total weight (fewer when there are
    fewer items); empty input gives no range."""
    total = sum(weights)
    ranges: list[tuple[int, int]] = []
    start, running = 0, 0.0
    for index, weight in enumerate(weights):
        running += weight
        if len(ranges) < parts - 1 and running >= total * (len(ranges) + 1) / parts:
            ranges.append((start, index + 1))
            start = index + 1
    if start < len(weights):
        ranges.append((start, len(weights)))
    return ranges


STRIPS = 2
"""Strips a page's Hangul lines are stacked in: fixed, so the reading never depends on the
threads (Tesseract sizes spaces over a strip), and as many as two cores read at once."""


def read_detected_lines(
    image: Image.Image,
    detection: Detection,
    detector: LineDetector,
    reader: LineReader,
    workers: int = 1,
    strips: int = STRIPS,
    han: LineReader | None = None,
) -> tuple[list[TextLine], set[BBox]]:
    """The strip reader's (Tesseract's) reading of every detected line (straightened crops stacked
    in ``strips`` strips), read by up to ``workers`` processes side by side (each Tesseract on one
    thread). Each crop is read on its own row (Tesseract still adapts over a strip, so a split may
    move a space or a doubtful glyph). A line read as nothing keeps its box with empty text. With
    the lines, the boxes of those that may start with a clause number Tesseract misread or dropped
    (see :func:`may_lead_with_number`). With ``han``, the Han characters in a line's brackets are
    read by it (see :mod:`pagereader.stages.han_spans`)."""
    if len(detection.quads) == 0:
        return [], set()
    crops = detector.crop(image, detection.quads)
    ranges = split_even([c.shape[1] * c.shape[0] for c in crops], max(1, strips))
    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(ranges)))) as pool:
        reads = pool.map(lambda r: reader.read(crops[r[0] : r[1]]), ranges)
        read = [item for chunk in reads for item in chunk]
        read = reread_doubtful(crops, read, reader, pool)
    if han is not None:
        read = read_han_spans(crops, read, reader, han)
    boxes = detection.bboxes()
    lines = [
        TextLine(text=r.text, bbox=box, confidence=r.confidence)
        for box, r in zip(boxes, read, strict=True)
    ]
    numbered = {
        box
        for box, crop, r in zip(boxes, crops, read, strict=True)
        if may_lead_with_number(r.text, r.lead, crop.shape[0])
    }
    return sort_lines(lines), numbered


DOUBTFUL = 0.8
"""A line read in a strip under this confidence is read again on its own."""
MAX_REREADS = 8
"""At most this many lines of a page are read again (a noisy page's specks stay cheap)."""


def reread_doubtful(
    crops: Sequence[np.ndarray], read: list[LineRead], reader: LineReader, pool: ThreadPoolExecutor
) -> list[LineRead]:
    """``read`` with its doubtful lines read again, each crop alone, where that reading is the
    surer one. Tesseract takes a strip as one block of one type size, and a line unlike the
    rest (a slide's title among its bullets) can come out as junk there (문서 처리 현황 보고 read
    as 뜨세 정리 언원 보고, 0.70) though it reads right alone (0.97); it also skips a clean row
    now and then. Lines read as nothing go first, then the least sure."""
    doubtful = sorted(
        (i for i, r in enumerate(read) if r.confidence < DOUBTFUL),
        key=lambda i: (bool(read[i].text.strip()), read[i].confidence),
    )[:MAX_REREADS]
    again = pool.map(lambda i: reader.read([crops[i]])[0], doubtful)
    out = list(read)
    for index, second in zip(doubtful, again, strict=True):
        first = read[index]
        # a line the strip read as nothing takes only a sure reading: alone, mirrored
        # bleed-through from the back of the sheet reads as Hangul-like junk at 0.2-0.6
        bar = first.confidence if first.text.strip() else DOUBTFUL
        sure = second.confidence >= bar and second.confidence > first.confidence
        if second.text.strip() and sure:
            out[index] = second
    return out


NUMBER_LEAD = 0.6
"""A reading that starts this many line heights into its crop left something out at the
start: a clause number is about one line height wide."""


def may_lead_with_number(text: str, lead: float | None, height: int) -> bool:
    """Whether a Hangul line's reading may hide a clause number (①) at its start: nothing
    read, a first character that is not a Hangul syllable ("(2", "8", "•", "(모든": the number
    read as a bracket and run into the word), or a first word that starts well inside the crop
    (the number dropped). A line read from its left edge starting with a Hangul syllable
    holds none, and is not read again."""
    start = text.strip()[:1]
    if not start or lead is None:
        return True
    if not "\uac00" <= start <= "\ud7a3":
        return True
    return lead > NUMBER_LEAD * height


_CIRCLED = re.compile(r"^[\u2460-\u2473]\s*\S?$")
CIRCLED_SCORE = 0.6
"""PP-OCR must read the glyph at a line's start as a circled number this surely (a piece of
the next glyph may follow it in the crop)."""
CIRCLED_WIDTHS = (1.0, 1.5)
"""Crop widths at a line's start, in line heights: the glyph alone and with the start of the
next one; the surer reading of a circled number wins (either alone is sometimes unsure)."""
CIRCLED_SURE = 0.9
"""A circled number read this surely from the narrower crop settles the line: the wider crop
is read only for the others (on real_legal's Korean scans the glyph alone reads 0.97-1.0)."""
_MISREAD_NUMBER = re.compile(r"^[(\[]?[0-9@®©•·]{1,2}(?=[\uac00-\ud7a3])")
"""A circled number misread and run into the first word ("(8모든")."""


def _first_glyph_crops(
    image: Image.Image, line: TextLine, detected: Sequence[BBox]
) -> list[np.ndarray]:
    x0, y0, _, y1 = (int(v) for v in line.bbox)
    starts = [box[0] for box in detected if _inside(line, box)]
    x0 = int(min([x0, *starts]))
    height = max(1, y1 - y0)
    return [
        np.asarray(
            image.crop((max(0, x0 - 4), y0, x0 + int(width * height), y0 + height)).convert("RGB")
        )
        for width in CIRCLED_WIDTHS
    ]


def _with_number(text: str, number: str) -> str:
    """``text`` led by ``number``: it replaces a first token without Hangul, or a misread
    number run into the first word, or goes before the first word."""
    first, _, rest = text.strip().partition(" ")
    if any("\uac00" <= ch <= "\ud7a3" for ch in first):
        rest = _MISREAD_NUMBER.sub("", text.strip())
    return f"{number} {rest}".strip()


def restore_circled_numbers(
    image: Image.Image,
    lines: list[TextLine],
    reader: LineReader,
    detected: Sequence[BBox] = (),
    numbered: Collection[BBox] | None = None,
) -> list[TextLine]:
    """Clause numbers (①, ②, ...) that Tesseract's Korean model misreads ("(2", "8", "•"), read
    again by ``reader`` (PP-OCR, which knows them): the first glyph of each line in ``numbered``
    (the boxes of lines whose reading may hide one; every line when None). A line starts where the
    detector's line around it starts, when that is further left (Tesseract sometimes drops the
    number altogether). PP-OCR pads every crop to a full line's width, so a page's 40 first glyphs
    cost as much as its 40 lines: only the suspects are read, each crop width in one batch, and a
    wider crop only where the narrower ones read no number ``CIRCLED_SURE``."""
    chosen = [i for i, line in enumerate(lines) if numbered is None or line.bbox in numbered]
    crops = {i: _first_glyph_crops(image, lines[i], detected) for i in chosen}
    found: dict[int, list[tuple[float, str]]] = {i: [] for i in chosen}
    pending = chosen
    for width in range(len(CIRCLED_WIDTHS)):
        if not pending:
            break
        read = reader.read([crops[i][width] for i in pending])
        for index, (text, score, _) in zip(pending, read, strict=True):
            if score >= CIRCLED_SCORE and _CIRCLED.match(text):
                found[index].append((score, text[0]))
        pending = [i for i in pending if max(found[i], default=(0.0, ""))[0] < CIRCLED_SURE]
    out = list(lines)
    for index, readings in found.items():
        line = lines[index]
        if readings and line.text.strip():
            number = max(readings)[1]
            out[index] = line.model_copy(update={"text": _with_number(line.text, number)})
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
