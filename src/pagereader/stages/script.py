"""Which script a page is written in: it decides the embedded OCR engine.

Digital pages count the letters of their text layer; scans ask Tesseract's OSD, which also
tells the page's orientation. ``--lang`` overrides both.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from pagereader.types import Script

SCRIPT_OF_LANG: dict[str, Script] = {"en": "latin", "zh-Hant": "han", "ko": "hangul"}


def count_scripts(text: Iterable[str]) -> dict[str, int]:
    """Letters per script family: Hangul, Han (incl. kana), Latin."""
    counts = {"hangul": 0, "han": 0, "latin": 0}
    for chunk in text:
        for ch in chunk:
            code = ord(ch)
            if 0xAC00 <= code <= 0xD7A3 or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
                counts["hangul"] += 1
            elif (
                0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF
                or 0xF900 <= code <= 0xFAFF or 0x3040 <= code <= 0x30FF
            ):
                counts["han"] += 1
            elif ch.isalpha() and unicodedata.name(ch, "").startswith("LATIN"):
                counts["latin"] += 1
    return counts


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
