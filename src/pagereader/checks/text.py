"""Pure text helpers the checks share: normalization, character consistency, script counts.

The evaluation metrics use the same definitions, so a verifier threshold and a benchmark score
mean the same thing.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from rapidfuzz.distance import Levenshtein

# Variant forms that print the same word; folded so the choice of form is never an error.
VARIANT_GLYPHS: dict[str, str] = {
    "爲": "為",
    "裏": "裡",
    "着": "著",
    "綫": "線",
    "峯": "峰",
    "衆": "眾",
    "敎": "教",
    "眞": "真",
    "羣": "群",
    "溼": "濕",
    "牀": "床",
    "啓": "啟",
    "强": "強",
    "戸": "戶",
    "吿": "告",
    "說": "説",
    "銳": "鋭",
    "稅": "税",
    "內": "内",
    "緖": "緒",
    "錄": "録",
    "淸": "清",
    "靑": "青",
}
_VARIANT_TABLE = str.maketrans(VARIANT_GLYPHS)
_WS = re.compile(r"\s+")
_BULLETS = re.compile(r"^\s*[•●○◦▪▫■□◆◇►▶‣⁃∙·]\s*", re.M)
_MD_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"<!--.*?-->", re.S), " "),
    (re.compile(r"!\[([^\]]*)\]\([^)]*\)"), r"\1"),
    (re.compile(r"\[([^\]]*)\]\([^)]*\)"), r"\1"),
    (re.compile(r"<br\s*/?>", re.I), " "),
    (re.compile(r"</?[A-Za-z][^>]*>"), " "),
    (re.compile(r"^\s{0,3}#{1,6}\s+", re.M), ""),
    (re.compile(r"^\s*>\s?", re.M), ""),
    (re.compile(r"^\s*[-*+]\s+", re.M), ""),
    (re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$", re.M), ""),
    (re.compile(r"(\*\*|__)(.+?)\1", re.S), r"\2"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"\1"),
    (re.compile(r"`+"), ""),
    (re.compile(r"\s*\|\s*"), " "),
)


def strip_markdown(text: str) -> str:
    """Markdown and HTML syntax removed, text kept, so formatting never counts as an error."""
    for pattern, repl in _MD_RULES:
        text = pattern.sub(repl, text)
    return _BULLETS.sub("", text)


def normalize(text: str, *, markdown: bool = True, keep_spaces: bool = False) -> str:
    """NFKC, Markdown stripped, variants folded, whitespace removed (or collapsed)."""
    if markdown:
        text = strip_markdown(text)
    text = unicodedata.normalize("NFKC", text).translate(_VARIANT_TABLE)
    if keep_spaces:
        return _WS.sub(" ", text).strip()
    return _WS.sub("", text)


def char_consistency(hypothesis: str, reference: str) -> float:
    """``1 - Lev(h, r) / max(|h|, |r|)`` on normalized text; two empty strings agree fully."""
    longest = max(len(hypothesis), len(reference))
    if longest == 0:
        return 1.0
    return 1.0 - Levenshtein.distance(hypothesis, reference) / longest


def count_scripts(text: Iterable[str]) -> dict[str, int]:
    """Letters per script family: Hangul, Han (incl. kana), Latin."""
    counts = {"hangul": 0, "han": 0, "latin": 0}
    for chunk in text:
        for ch in chunk:
            code = ord(ch)
            if 0xAC00 <= code <= 0xD7A3 or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
                counts["hangul"] += 1
            elif (
                0x4E00 <= code <= 0x9FFF
                or 0x3400 <= code <= 0x4DBF
                or 0xF900 <= code <= 0xFAFF
                or 0x3040 <= code <= 0x30FF
            ):
                counts["han"] += 1
            elif ch.isalpha() and unicodedata.name(ch, "").startswith("LATIN"):
                counts["latin"] += 1
    return counts


def dominant_script(text: str, min_letters: int = 3) -> str:
    """``hangul``, ``han``, ``latin``, ``mixed`` or ``unknown`` (too few letters to say).

    CJK wins at a lower share than Latin: CJK text carries Latin names and numbers, while one
    CJK character carries a word's worth of meaning.
    """
    counts = count_scripts([text])
    total = sum(counts.values())
    if total < min_letters:
        return "unknown"
    if counts["hangul"] >= max(min_letters, 0.15 * total):
        return "hangul"
    if counts["han"] >= max(min_letters, 0.15 * total):
        return "han"
    if counts["latin"] >= 0.5 * total:
        return "latin"
    return "mixed"
