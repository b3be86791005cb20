"""The one place for text normalization, scripts and character classes.

The verifier's checks, the evaluation metrics, the decision layer and the layout all import
these, so a verifier threshold and a benchmark score mean the same thing. Outputs keep what the
engines read; normalization (variant glyphs folded, Markdown stripped) is for comparisons only.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

from pagereader.types import Script

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


def normalize(
    text: str, *, markdown: bool = True, fold_variants: bool = True, keep_spaces: bool = False
) -> str:
    """NFKC, Markdown stripped, variant glyphs folded, whitespace removed; for comparisons.

    Whitespace carries no meaning between CJK characters and differs between engines, so
    character comparisons drop it; ``keep_spaces`` collapses it to single spaces instead (for
    word-level metrics and critical tokens), except between two Han or kana characters, where a
    line break is only where the print wrapped (第三 / 十六條 is one article number). Variant forms
    print the same word, so by default the choice of form is never an error.
    """
    if markdown:
        text = strip_markdown(text)
    text = unicodedata.normalize("NFKC", text)
    if fold_variants:
        text = text.translate(_VARIANT_TABLE)
    if keep_spaces:
        return _WS.sub(" ", _CJK_GAP.sub("", text)).strip()
    return _WS.sub("", text)


def char_consistency(hypothesis: str, reference: str) -> float:
    """``1 - Lev(h, r) / max(|h|, |r|)`` on normalized text; two empty strings agree fully."""
    longest = max(len(hypothesis), len(reference))
    if longest == 0:
        return 1.0
    from rapidfuzz.distance import Levenshtein  # 0.02 s to import; a parse may never compare

    return 1.0 - Levenshtein.distance(hypothesis, reference) / longest


# Character classes, as code point ranges (inclusive).
HANGUL_RANGES: tuple[tuple[int, int], ...] = ((0xAC00, 0xD7A3), (0x1100, 0x11FF), (0x3130, 0x318F))
HAN_RANGES: tuple[tuple[int, int], ...] = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0xF900, 0xFAFF),
    (0x20000, 0x2FA1F),
)
KANA_RANGES: tuple[tuple[int, int], ...] = ((0x3040, 0x30FF),)
CJK_PUNCTUATION_RANGES: tuple[tuple[int, int], ...] = (
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0xFF00, 0xFF60),  # full-width forms
)


_CJK_CLASS = "".join(
    f"{chr(low)}-{chr(high)}" for low, high in (*HAN_RANGES, *KANA_RANGES, *CJK_PUNCTUATION_RANGES)
)
_CJK_GAP = re.compile(rf"(?<=[{_CJK_CLASS}])\s+(?=[{_CJK_CLASS}])")


def _in(code: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(low <= code <= high for low, high in ranges)


def is_hangul(ch: str) -> bool:
    """Hangul syllables and jamo."""
    return bool(ch) and _in(ord(ch), HANGUL_RANGES)


def is_han(ch: str) -> bool:
    """Han ideographs and kana (counted together: neither is Hangul nor Latin)."""
    return bool(ch) and (_in(ord(ch), HAN_RANGES) or _in(ord(ch), KANA_RANGES))


def is_cjk(ch: str) -> bool:
    """Han, kana and CJK punctuation: scripts written without spaces between words."""
    return bool(ch) and (is_han(ch) or _in(ord(ch), CJK_PUNCTUATION_RANGES))


def is_latin_letter(ch: str) -> bool:
    """A letter of the Latin script (accented ones included)."""
    return ch.isalpha() and unicodedata.name(ch, "").startswith("LATIN")


def count_scripts(text: Iterable[str]) -> dict[str, int]:
    """Letters per script family: Hangul, Han (incl. kana), Latin."""
    counts = {"hangul": 0, "han": 0, "latin": 0}
    for chunk in text:
        for ch in chunk:
            if is_hangul(ch):
                counts["hangul"] += 1
            elif is_han(ch):
                counts["han"] += 1
            elif is_latin_letter(ch):
                counts["latin"] += 1
    return counts


def script_of(counts: Mapping[str, int], min_letters: int = 3) -> Script:
    """``hangul``, ``han``, ``latin``, ``mixed`` or ``unknown`` (fewer than ``min_letters``
    letters) from letter counts (:func:`count_scripts`).

    CJK wins at a lower share than Latin: CJK text carries Latin names and numbers, while one
    CJK character carries a word's worth of meaning.
    """
    total = sum(counts.values())
    if total < max(1, min_letters):
        return "unknown"
    if counts["hangul"] >= max(min_letters, 0.15 * total):
        return "hangul"
    if counts["han"] >= max(min_letters, 0.15 * total):
        return "han"
    if counts["latin"] >= 0.5 * total:
        return "latin"
    return "mixed"


def dominant_script(text: str, min_letters: int = 3) -> Script:
    """The script of one text, by :func:`script_of`'s rule."""
    return script_of(count_scripts([text]), min_letters)


HAN_NUMERALS = "一二三四五六七八九十百千零〇兩"
ARTICLE_NUMBERS: dict[str, tuple[str, ...]] = {
    "zh-Hant": (rf"第\s*[{HAN_NUMERALS}0-9]+(?:-[0-9]+)?\s*條(?:之[{HAN_NUMERALS}0-9]+)?",),
    # \s* not \s+: OCR drops the space now and then ("Article3"), which is the same token
    "en": (r"\bArticle\s*\d+[A-Za-z]?", r"\bSection\s*\d+(?:\.\d+)*"),
    "ko": (r"제\s*\d+\s*조(?:의\s*\d+)?",),
}
"""Article numbers by language: critical tokens for the verifier, paragraph starts for layout."""
_ARTICLE_HEAD = re.compile(
    r"^\s*(?:" + "|".join(p for patterns in ARTICLE_NUMBERS.values() for p in patterns) + ")"
)
_SENTENCE_ENDS = frozenset(".。;；:：!?！？)）」』")
_ARTICLE_HEADING = re.compile(
    r"^\s*(?:" + ARTICLE_NUMBERS["zh-Hant"][0] + r"|제\s*\d+\s*조(?:\s*의\s*\d+)?)"
    r"\s*(?:[(（][^()（）]{1,24}[)）](?:\s|$)|$)"
)


def starts_with_article_number(text: str) -> bool:
    """Whether a line opens with an article number (第 12 條, Article 5, Section 2.1, 제3조)."""
    return bool(_ARTICLE_HEAD.match(text))


def opens_article_heading(text: str) -> bool:
    """Whether a line opens a Chinese or Korean article by its heading: the label alone (第十二
    條, 제3조의2, the code-book style's line above the article's text), or the label and its
    title in brackets followed by a space or nothing (제4조 (신고) 사용자는 ...). A reference
    wrapped to a line's start goes on with its particle or verb (제3조의2에 따라, 第三條規定,
    제4조(신고)에 따른)."""
    return bool(_ARTICLE_HEADING.match(text))


def ends_sentence(text: str) -> bool:
    """Whether a line ends a sentence or clause (so the next line may open a new article)."""
    stripped = text.rstrip()
    return bool(stripped) and stripped[-1] in _SENTENCE_ENDS
