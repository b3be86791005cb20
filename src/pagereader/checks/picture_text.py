"""Picture text: does what OCR read inside a picture read like text of the document?

Pictures are where OCR reads garbage: a screenshot's small print, a poster's ornamental
letters, a photographed manuscript. The block checks leave figures alone (a chart's ticks are
not prose), so the text a picture adds is judged here, with the signs the plausibility check
uses on text blocks and three of its own: letters run together into words longer than any
language writes, a confidence that a picture must clear to be printed at all, and text that is
chiefly numbers (a chart's ticks and legend years: OCR reads them as a row of numbers with no
way to tell which value belongs to which bar, which a chart engine or the chart's data must say).
"""

from __future__ import annotations

import re

from pagereader.checks.plausibility import (
    OFF_SCRIPT_TRUSTED,
    han_dominance,
    odd_latin_words,
    symbol_share,
)
from pagereader.text.chars import dominant_script
from pagereader.types import Finding

CHECK = "picture"
PICTURE_CONFIDENCE = 0.90
"""A picture's text is printed only when its lines read this confidently on average: what a
picture adds is optional, and ornamental or photographed letters read at 0.77-0.86 line by line
(a cartoon poster's "ENTTRGAINING CARTCONS"), where clean print reads at 0.93-0.99."""
_DEFINITE = frozenset({"latin", "han", "hangul"})
_MIN_LETTERS = 8
_LONG_WORD = 16
"""Latin letters in a row beyond this are words run together by a misread (no spaces seen)."""
_LONG_SHARE = 0.3
_LATIN_RUN = re.compile(r"[A-Za-z]+")
_NUMBER = re.compile(r"^[-+(]?[\d.,:/%$€£¥-]*\d[\d.,:/%$€£¥)-]*$")
_NUMBERS_SHARE = 0.75
_MIN_NUMBERS = 4


def number_share(text: str) -> float:
    """Share of the words that are numbers (ticks, years, ranges, amounts), when there are at
    least four of them; 0 otherwise."""
    words = text.split()
    numbers = sum(1 for word in words if _NUMBER.match(word))
    return numbers / len(words) if numbers >= _MIN_NUMBERS else 0.0


def long_run_share(text: str) -> float:
    """Share of the Latin letters that sit in runs longer than ``_LONG_WORD`` letters."""
    runs = _LATIN_RUN.findall(text)
    letters = sum(len(r) for r in runs)
    if letters < 2 * _LONG_WORD:
        return 0.0
    return sum(len(r) for r in runs if len(r) > _LONG_WORD) / letters


def check_picture_text(text: str, confidence: float | None, page_script: str) -> list[Finding]:
    """One warning for each reason the picture's text is not to be printed (empty: keep it)."""
    reasons: list[str] = []
    if confidence is not None and confidence < PICTURE_CONFIDENCE:
        reasons.append(f"OCR confidence {confidence:.2f} (< {PICTURE_CONFIDENCE:.2f})")
    got = dominant_script(text, _MIN_LETTERS)
    sure = confidence is not None and confidence >= OFF_SCRIPT_TRUSTED
    if page_script in _DEFINITE and got in _DEFINITE and got != page_script and not sure:
        reasons.append(f"{got} letters on a {page_script} page")
    if han_dominance(text) > 0.25:
        reasons.append("one Han character repeated through the text")
    if odd_latin_words(text) >= 0.4:
        reasons.append(f"{odd_latin_words(text):.0%} of the words have no vowel or mixed case")
    if symbol_share(text) > 0.3:
        reasons.append(f"{symbol_share(text):.0%} of the characters are symbols")
    if number_share(text) >= _NUMBERS_SHARE:
        reasons.append(
            f"{number_share(text):.0%} of the words are numbers: a chart's ticks and legend, "
            "read without the chart that pairs them"
        )
    if long_run_share(text) >= _LONG_SHARE:
        reasons.append("letters run together into words longer than any language writes")
    return [Finding(check=CHECK, message=reason, severity="warn") for reason in reasons]
