"""Which way up a scan stands and which script it is written in (it decides the OCR engine).

Digital pages count the letters of their text layer. Scans are judged from the page's own text
lines: PP-OCR detection finds them once (layout and recognition reuse that detection), and a
few of the longest lines are read as they stand and turned half a turn. A page is turned only
when the turned reading is both confident and far more confident than the upright one; OSD-style
guesses from glyph shapes alone turned real upright pages (bleed-through, handwriting), so
they are not used. The same few lines give the script: a confident PP-OCR reading is Chinese
or Latin; a weak one (PP-OCR has no Hangul) is read again by Tesseract's Korean model, and a
confident Hangul reading makes the page Korean and upright (no turned reading is made).
``--lang`` overrides.
"""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PIL import Image

from pagereader.config.options import RapidOCREngineOptions
from pagereader.protocols import Detection, LineDetector, LineRead, LineReader
from pagereader.runtime import Capabilities
from pagereader.sources.base import RenderedPage
from pagereader.text.chars import count_scripts, script_of
from pagereader.types import Script

SCRIPT_OF_LANG: dict[str, Script] = {"en": "latin", "zh-Hant": "han", "ko": "hangul"}


SAMPLE_LINES = 4
"""How many of the longest lines are read to judge orientation and script."""
_CROP_HEIGHTS = 10
"""A sampled crop is cut to this many line heights: reading time grows with width."""
TURN_MIN_SCORE = 0.75
"""The turned reading must be at least this confident ..."""
TURN_MARGIN = 0.25
"""... and this much more confident than the reading as the page stands."""
_CONFIDENT = 0.8
KOREAN_MIN_CONFIDENCE = 0.7
"""Tesseract's Korean model reads Korean lines at 0.85-0.9 and others at 0.3 (a guess)."""


@dataclass(frozen=True)
class Reading:
    """The sampled lines read one way: mean recognition score and the text."""

    score: float
    text: str
    made: bool = True


@dataclass(frozen=True)
class Upright:
    """A scan made upright: the page, its script and why, and its line detection."""

    page: RenderedPage
    script: Script
    reason: str
    turned: int
    detection: Detection | None
    unverified: str = ""
    """Why the page may hold text no installed engine reads (the sampled lines read weakly
    and Tesseract, which tells Hangul, is missing); empty when the script is known."""
    install: str = ""
    """How to install the missing reader, when ``unverified`` says one is missing."""


def _side_lengths(quad: np.ndarray) -> tuple[float, float]:
    return float(np.linalg.norm(quad[0] - quad[1])), float(np.linalg.norm(quad[0] - quad[3]))


def tall_share(detection: Detection) -> float:
    """Share of clearly elongated lines that stand upright (text running down the page)."""
    tall = wide = 0
    for quad in detection.quads:
        width, height = _side_lengths(quad)
        tall += height > 1.5 * width
        wide += width > 1.5 * height
    return tall / (tall + wide) if tall + wide else 0.0


def sample_crops(
    image: Image.Image, detection: Detection, detector: LineDetector, count: int = SAMPLE_LINES
) -> list[np.ndarray]:
    """Crops of the ``count`` longest lines, each cut to a bounded width."""
    if len(detection.quads) == 0:
        return []
    lengths = [max(_side_lengths(q)) for q in detection.quads]
    order = np.argsort(lengths)[::-1][:count]
    crops = []
    for crop in detector.crop(image, detection.quads[order]):
        height = crop.shape[0]
        crops.append(np.ascontiguousarray(crop[:, : max(1, _CROP_HEIGHTS * height)]))
    return crops


def _reading(results: list[LineRead]) -> Reading:
    score = statistics.mean(r.confidence for r in results) if results else 0.0
    return Reading(score, "".join(r.text for r in results))


def read_both_ways(
    crops: list[np.ndarray],
    vertical: bool,
    reader: LineReader,
    upright: Callable[[], bool] | None = None,
) -> tuple[Reading, Reading]:
    """The crops read as they stand and turned half a turn. A confident reading of
    horizontal lines as they stand settles it: no turned reading could beat it by the margin,
    so that one is not made (it would read 0). So does ``upright()`` when it says the weak
    reading is of lines that stand upright in a script PP-OCR does not know (Korean)."""
    ahead = _reading(reader.read(crops))
    if not vertical and (ahead.score > 1.0 - TURN_MARGIN or (upright is not None and upright())):
        return ahead, Reading(0.0, "", made=False)
    turned = reader.read([np.ascontiguousarray(np.rot90(c, 2)) for c in crops])
    return ahead, _reading(turned)


def choose_turn(vertical: bool, ahead: Reading, turned: Reading) -> tuple[int, str]:
    """Degrees to turn the page counter-clockwise, and the evidence (pure).

    Lines wider than tall: 0 unless the half-turned reading is confident and far better.
    Lines taller than wide were laid flat by a quarter turn counter-clockwise: whichever of the
    two ways reads confidently and far better decides 90 or 270; otherwise the page stays.
    """
    evidence = f"sampled lines read {ahead.score:.2f} as they stand" + (
        f", {turned.score:.2f} turned" if turned.made else ""
    )
    if vertical:
        best, other, angle = (
            (ahead, turned, 90) if ahead.score >= turned.score else (turned, ahead, 270)
        )
        if best.score >= TURN_MIN_SCORE and best.score - other.score >= TURN_MARGIN:
            return angle, f"text runs down the page; {evidence}"
        return 0, f"text runs down the page but no way reads clearly; {evidence}: left as is"
    if turned.score >= TURN_MIN_SCORE and turned.score - ahead.score >= TURN_MARGIN:
        return 180, evidence
    return 0, evidence


def turn_page(page: RenderedPage, angle: int) -> RenderedPage:
    """The page turned ``angle`` degrees counter-clockwise."""
    swap = angle % 180 == 90
    return dataclasses.replace(
        page,
        image=page.image.rotate(angle, expand=True),
        width=page.height if swap else page.width,
        height=page.width if swap else page.height,
    )


class HangulProbe:
    """The Hangul reader (Tesseract's Korean model) on the sampled crops, read once when first
    asked: whether they are Korean (a confident Hangul reading; PP-OCR, which has no Hangul,
    reads them weakly whichever way up), and what it read. The orientation asks it before
    reading a weak page turned, and the script decision reuses its answer."""

    def __init__(self, crops: list[np.ndarray], reader: LineReader) -> None:
        self.crops = crops
        self.reader = reader
        self._answer: tuple[bool, str] | None = None

    def korean(self) -> bool:
        """Whether the crops read as Korean (False without crops or Tesseract)."""
        return self.answer()[0]

    def answer(self) -> tuple[bool, str]:
        """(Korean, what Tesseract read and how surely)."""
        if self._answer is None:
            self._answer = self._read()
        return self._answer

    def _read(self) -> tuple[bool, str]:
        if not self.crops or not self.reader.available():
            return False, "Tesseract unavailable, so Hangul cannot be detected"
        reads = self.reader.read(self.crops)
        korean = count_scripts([read.text for read in reads])["hangul"]
        # a crop read as nothing says nothing of its script: Tesseract at times skips a whole
        # row of a strip (a clean Korean line, after a shorter one), which counted as 0 here
        read = [r.confidence for r in reads if r.text.strip()]
        confidence = statistics.mean(read) if read else 0.0
        probe = f"Tesseract (kor) read {korean} Hangul at confidence {confidence:.2f}"
        return korean >= 10 and confidence >= KOREAN_MIN_CONFIDENCE, probe


def script_from_reading(
    reading: Reading, crops: list[np.ndarray], probe: HangulProbe
) -> tuple[Script, str, str]:
    """The script of the sampled lines: PP-OCR's letters when it read them confidently; otherwise
    Tesseract's Korean model on them (PP-OCR has no Hangul): a confident Hangul reading makes the
    page Korean, a poor one leaves PP-OCR's letters to decide. ``probe``: the Korean probe (of other
    crops when the page was turned: it is made again for these). The third value says why the page
    may hold text that nothing installed reads: lines PP-OCR read weakly, with no Tesseract to tell
    whether they are Hangul (PP-OCR reads Hangul as weak junk)."""
    counts = count_scripts([reading.text])
    letters = sum(counts.values())
    if reading.score >= _CONFIDENT and letters >= 4:
        why = f"sampled lines read by PP-OCR ({reading.score:.2f}): {counts}"
        return script_of(counts), why, ""
    weak = f"sampled lines read weakly by PP-OCR ({reading.score:.2f}): {counts}"
    if probe.crops is not crops:
        probe = HangulProbe(crops, probe.reader)
    korean, said = probe.answer()
    if not crops:
        return script_of(counts), f"{weak}; {said}", ""
    if not probe.reader.available():
        unverified = (
            f"this page's text lines were read weakly by the embedded OCR "
            f"({reading.score:.2f}) and may be Korean, which it cannot read; Tesseract's "
            f"Korean model, which reads Hangul, is not installed"
        )
        return script_of(counts), f"{weak}; {said}", unverified
    if korean:
        return "hangul", f"{weak}; {said}", ""
    return script_of(counts), f"{weak}; {said}: not Korean", ""


def upright_and_script(
    page: RenderedPage, engines: Capabilities, options: RapidOCREngineOptions | None = None
) -> Upright:
    """For a scan: the page turned upright when the evidence is strong, its script, and the
    line detection of the page as it finally stands (None for a page turned a quarter: the
    layout detects it at its own size)."""
    return orient(page, engines.line_detector(options).detect(page.image), engines, options)


def orient(
    page: RenderedPage,
    detection: Detection,
    engines: Capabilities,
    options: RapidOCREngineOptions | None = None,
) -> Upright:
    """The decision itself, from the page's line detection (which layout reuses). The lines
    are read by the reader of any script (PP-OCR), and by the Hangul reader where that one
    reads them weakly."""
    if len(detection.quads) == 0:
        return Upright(page, "unknown", "no text lines found", 0, detection)
    detector = engines.line_detector(options)
    vertical = tall_share(detection) > 0.5
    crops = sample_crops(page.image, detection, detector)
    probe = HangulProbe(crops, engines.script_reader("hangul", options))
    reader = engines.script_reader("unknown", options)
    ahead, turned = read_both_ways(crops, vertical, reader, upright=probe.korean)
    angle, evidence = choose_turn(vertical, ahead, turned)
    kept: Detection | None = detection
    if angle == 180:
        page = turn_page(page, angle)
        kept = detector.detect(page.image)
        crops = sample_crops(page.image, kept, detector)
        reading = turned
    elif angle:
        # A sideways page's type size was measured across its lines, so its detection size
        # is no guide: the layout detects the turned page at its own size. The sampled lines,
        # already laid flat, are the turned page's lines for the script.
        page = turn_page(page, angle)
        kept = None
        reading = turned if angle == 270 else ahead
        if angle == 270:
            crops = [np.ascontiguousarray(np.rot90(c, 2)) for c in crops]
    else:
        reading = ahead
        if vertical:
            crops = []  # sideways lines say nothing about the script
    script, why, unverified = script_from_reading(reading, crops, probe)
    orientation = (
        f"; page turned {angle} degrees ({evidence})" if angle else f"; upright ({evidence})"
    )
    install = probe.reader.install if unverified else ""
    return Upright(page, script, why + orientation, angle, kept, unverified, install)
