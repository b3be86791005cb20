"""Which script a page is written in: it decides the embedded OCR engine.

Digital pages count the letters of their text layer; scans ask Tesseract's OSD, which also
tells the page's orientation. ``--lang`` overrides both.
"""

from __future__ import annotations

from pagereader.types import Script

SCRIPT_OF_LANG: dict[str, Script] = {"en": "latin", "zh-Hant": "han", "ko": "hangul"}


def script_of(counts: dict[str, int]) -> Script:
    """The dominant script; Hangul or Han win over Latin at a lower share, as CJK pages carry
    Latin names and numbers while one CJK character carries a word's worth of meaning."""
    total = sum(counts.values())
    if total == 0:
        return "unknown"
    if counts["hangul"] >= max(3, 0.15 * total):
        return "hangul"
    if counts["han"] >= max(3, 0.15 * total):
        return "han"
    if counts["latin"] >= 0.5 * total:
        return "latin"
    return "mixed"
