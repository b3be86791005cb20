"""Which script a page is written in: it decides the embedded OCR engine.

Digital pages count the letters of their text layer. Scans are turned upright by Tesseract's
OSD, then a band of the page is read with the Korean, Chinese and English models together and
its letters counted (OSD's own script guess is weak on degraded pages). ``--lang`` overrides.
"""

from __future__ import annotations

import dataclasses
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from PIL import Image

from pagereader.engines.tesseract import detect_orientation, tesseract_available, tesseract_text
from pagereader.sources.base import RenderedPage
from pagereader.text import count_scripts, script_of
from pagereader.types import Script

SCRIPT_OF_LANG: dict[str, Script] = {"en": "latin", "zh-Hant": "han", "ko": "hangul"}


_OSD_SIDE = 1800
_PROBE_SIDE = 1400
_PROBE_LANGS = "kor+chi_tra+eng"
_OSD_TRUSTED = 2.0


def _reduced(image: Image.Image, side: int) -> Image.Image:
    factor = min(1.0, side / max(image.size))
    if factor >= 1.0:
        return image
    return image.resize((int(image.width * factor), int(image.height * factor)))


def text_band(image: Image.Image, share: float = 0.25) -> Image.Image:
    """The horizontal band of the page (``share`` of its height) holding the most ink."""
    gray = np.asarray(image.convert("L"))
    ink = (gray < 128).sum(axis=1).astype(float)
    height = max(1, int(len(ink) * share))
    if len(ink) <= height:
        return image
    window = np.convolve(ink, np.ones(height), mode="valid")
    top = int(window.argmax())
    return image.crop((0, top, image.width, top + height))


def probe_script(image: Image.Image) -> tuple[Script, str]:
    """Read the inkiest band with Korean, Chinese and English models at once and count the
    letters: unlike OSD's script guess, this holds up on blurred and noisy scans."""
    text = tesseract_text(_reduced(text_band(image), _PROBE_SIDE), _PROBE_LANGS, psm=6)
    counts = count_scripts([text])
    script = script_of(counts)
    if script == "hangul" and counts["han"] > counts["hangul"]:
        # Reading Chinese with the Korean model loaded yields a few stray Hangul syllables; a
        # Korean page read the same way gives far more Hangul than Han.
        script = "han"
    return script, f"script probe ({_PROBE_LANGS}) letters: {counts}"


def upright_and_script(page: RenderedPage) -> tuple[RenderedPage, Script, str]:
    """For a scan: the page turned upright (Tesseract OSD) and its script (the probe, or OSD's
    guess when the probe reads no letters)."""
    if not tesseract_available():
        return (
            page,
            "unknown",
            (
                "Tesseract unavailable: orientation and script of scans unknown (Hangul cannot be "
                "detected)"
            ),
        )
    with ThreadPoolExecutor(max_workers=2) as pool:  # two Tesseract processes side by side
        osd_job = pool.submit(detect_orientation, _reduced(page.image, _OSD_SIDE).convert("L"))
        probe_job = pool.submit(probe_script, page.image)
        osd, (script, reason) = osd_job.result(), probe_job.result()
    turned = ""
    if osd is not None and osd.rotate % 360:
        image = page.image.rotate(-osd.rotate, expand=True)
        swap = osd.rotate % 180 == 90
        page = dataclasses.replace(
            page,
            image=image,
            width=page.height if swap else page.width,
            height=page.width if swap else page.height,
        )
        turned = f"; page turned {osd.rotate} degrees"
        script, reason = probe_script(page.image)
    if script == "unknown" and osd is not None and osd.confidence >= _OSD_TRUSTED:
        script, reason = osd.script, f"OSD: {osd.script_name} (confidence {osd.confidence:.1f})"
    return page, script, reason + turned
