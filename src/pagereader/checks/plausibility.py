"""Plausibility: does the answer read like text at all, in the document's script?

An OCR engine reading a page turned the wrong way, bleed-through or noise answers fluently
wrong: a low confidence, letters of another script than the page's, or character sequences
no language has (one Han character repeated through the line, Latin "words" without vowels,
more symbols than letters). Unlike the script check, this one also judges the embedded
engines' own answers, against the decision layer's script of the page, since no second
reading exists on an embedded scan. Such a block is kept and flagged for review.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from pagereader.checks.base import Subject
from pagereader.text.chars import dominant_script
from pagereader.types import Finding

MIN_CONFIDENCE = 0.6
"""Mean line confidence under which an OCR answer is not to be trusted unseen."""
OFF_SCRIPT_TRUSTED = 0.85
"""Text of another script than the page's, read at least this confidently, is real: pages mix
English and Chinese. A page turned the wrong way or Hangul read by a model without Hangul
reads far less confidently."""
_MIN_LETTERS = 8
_DEFINITE = frozenset({"latin", "han", "hangul"})
_NAMES = {"latin": "Latin", "han": "Han (Chinese)", "hangul": "Hangul (Korean)"}
_EXACT_ENGINES = frozenset({"textlayer", "grid"})
_WORD = re.compile(r"[^\W\d_]+")
_VOWELS = frozenset("aeiouyàáâãäåèéêëìíîïòóôõöùúûüýÿ")


def han_dominance(text: str) -> float:
    """Share of the most frequent Han character among the Han characters (0 when too few)."""
    han = [ch for ch in text if "\u4e00" <= ch <= "\u9fff"]
    if len(han) < 12:
        return 0.0
    return Counter(han).most_common(1)[0][1] / len(han)


def odd_latin_words(text: str) -> float:
    """Share of Latin words of 3+ letters that no language writes: no vowel (acronyms aside),
    or upper and lower case mixed inside the word after its first letter."""
    words = [w for w in _WORD.findall(text) if len(w) >= 3 and w.isascii()]
    if len(words) < 4:
        return 0.0
    odd = sum(
        1
        for w in words
        if (not (_VOWELS & set(w.lower())) and not w.isupper())  # acronyms may lack vowels
        or (w[1:] != w[1:].lower() and w[1:] != w[1:].upper())
    )
    return odd / len(words)


def symbol_share(text: str) -> float:
    """Share of visible characters that are neither letters nor digits nor common punctuation."""
    visible = [ch for ch in text if not ch.isspace()]
    if len(visible) < 12:
        return 0.0
    odd = [
        ch
        for ch in visible
        if not ch.isalnum() and ch not in ".,;:!?()[]'\"-、。，；：「」『』（）·ㆍ•"
    ]
    return len(odd) / len(visible)


def check_plausibility(subject: Subject, min_confidence: float = MIN_CONFIDENCE) -> list[Finding]:
    """A warning for each sign that the answer is not real text of the document."""
    if subject.kind in ("figure", "formula", "table") or subject.engine in _EXACT_ENGINES:
        return []
    text = subject.answer
    findings: list[Finding] = []

    def flag(message: str) -> None:
        findings.append(Finding(check="plausibility", message=message, severity="warn"))

    if subject.confidence is not None and subject.confidence < min_confidence:
        flag(f"OCR confidence {subject.confidence:.2f} (< {min_confidence:.2f})")
    expected = subject.decision_script
    got = dominant_script(text, _MIN_LETTERS)
    confident = subject.confidence is not None and subject.confidence >= OFF_SCRIPT_TRUSTED
    if expected in _DEFINITE and got in _DEFINITE and got != expected and not confident:
        flag(f"{_NAMES[got]} text on a page the decision layer read as {_NAMES[expected]}")
    if han_dominance(text) > 0.25:
        flag(f"one Han character is {han_dominance(text):.0%} of the text: not a language")
    if odd_latin_words(text) >= 0.4:
        flag(f"{odd_latin_words(text):.0%} of the Latin words have no vowel or mixed case")
    if symbol_share(text) > 0.3:
        flag(f"{symbol_share(text):.0%} of the characters are symbols")
    return findings


MIN_CHARS_PER_LINE = 4.0
"""A page whose detected text lines gave fewer characters than this each was mostly unread."""


def page_findings(
    texts: Sequence[str],
    confidences: Sequence[float | None],
    line_count: int,
    script: str,
    min_confidence: float = MIN_CONFIDENCE,
) -> list[Finding]:
    """Plausibility of a whole page's OCR text: blocks that pass one by one (a circled number
    read, the rest of the line not) can still add up to a page nobody could use."""
    text = "\n".join(texts)
    chars = len("".join(text.split()))
    findings: list[Finding] = []
    if line_count >= 5 and chars < MIN_CHARS_PER_LINE * line_count:
        findings.append(
            Finding(
                check="plausibility",
                message=(
                    f"the page's {line_count} text lines gave {chars} characters: most of the "
                    "page was not read (wrong script or orientation?)"
                ),
                severity="warn",
            )
        )
    weights = [(len(t), c) for t, c in zip(texts, confidences, strict=True) if c is not None]
    total = sum(n for n, _ in weights)
    mean = sum(n * c for n, c in weights) / total if total else None
    if total >= 20 and mean is not None and mean < min_confidence:
        findings.append(
            Finding(
                check="plausibility",
                message=f"the page's OCR confidence is {mean:.2f} (< {min_confidence:.2f})",
                severity="warn",
            )
        )
    whole = check_plausibility(
        # the page's mean confidence only vouches for off-script text here: it was judged above
        Subject(text=text, engine="page", decision_script=script, confidence=mean),
        min_confidence=0.0,
    )
    findings.extend(
        Finding(check=f.check, message=f"the page's text: {f.message}", severity=f.severity)
        for f in whole
    )
    return findings
