"""How statutes and contracts number their parts: a block that opens a heading (編 章 節 款 目,
편 장 절 관, Part Chapter Section) or an article (條, 조, Article), its number as printed and
normalized (``第十五條之一`` -> ``15-1``, ``제4조의2`` -> ``4-2``), its title where one is
printed (``（定義）``, ``(목적)``) and whether it was deleted (``（刪除）``, ``삭제``). The ids
of the structure tree's articles (``art-30-1``) and the numbers people ask for
(:func:`asked_article`) are read here too, by the same patterns, and so are whether an
article number is the next after another and whether the text after one goes on as a
reference."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from pagereader.text.chars import HAN_NUMERALS
from pagereader.types import NodeKind

_HAN_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "兩": 2, "三": 3, "四": 4}
_HAN_DIGITS |= {"五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_HAN_UNITS = {"十": 10, "百": 100, "千": 1000}
_NUMBER = rf"(?:\d+|[{HAN_NUMERALS}]+)"

_ZH_HEADING = re.compile(rf"^第\s*(?P<n>{_NUMBER})\s*(?P<unit>[編章節款目])(?:\s+|$)(?P<rest>.*)$")
_KO_HEADING = re.compile(r"^제\s*(?P<n>\d+)\s*(?P<unit>[편장절관])(?:\s+|$)(?P<rest>.*)$")
_EN_HEADING = re.compile(
    r"^(?P<unit>PART|Part|CHAPTER|Chapter)\s+(?P<n>[IVXLCDM]+|\d+)\b[.:]?\s*(?P<rest>.*)$"
)
_ZH_ARTICLE = re.compile(
    rf"^第\s*(?P<n>\d+(?:\s*-\s*\d+)?|[{HAN_NUMERALS}]+)\s*條(?:\s*之\s*(?P<sub>{_NUMBER}))?"
)
_KO_ARTICLE = re.compile(r"^제\s*(?P<n>\d+)\s*조(?:\s*의\s*(?P<sub>\d+))?")
_EN_NUMBER = r"\d+[A-Za-z]?(?:-\d+)?"
"""An article number in English text: ``5``, ``5A``, ``30-1`` (a Korean or Taiwanese statute's
translation numbers its inserted articles so)."""
_EN_ARTICLE = re.compile(rf"^(?:ARTICLE|Article|Art\.)\s+(?P<n>{_EN_NUMBER})\b\.?")
_TITLE = re.compile(r"^\s*[（(](?P<title>[^（）()]{1,40})[）)]")
ITEM = re.compile(
    r"^(?:[①-⑳]|[一二三四五六七八九十]+、|[（(][一二三四五六七八九十\d]+[）)]|\d+[.)]\s|[가-하][.)]\s|[•・-]\s)"
)
"""A paragraph, subparagraph or item marker opening a line: ``①``, ``一、``, ``（一）``, ``1.``,
``가.``; such a line starts anew even when the line before it did not end a sentence."""
_DELETED = re.compile(r"^\s*[（(]?\s*(?:刪除|删除|삭제|Deleted|Repealed)\s*[）)]?\s*[。.]?\s*$")
_REFERENCE_AFTER = ("規定", "所", "及", "、", "或", "至", "第", "前", "後", "之規定")
"""What follows an article number that opens a reference, not an article: ``第三十條之一之
正常工作時間``, ``第十條規定``."""
_KO_PARTICLES = ("에", "를", "을", "은", "는", "와", "과", "및", "부터", "까지")

_ZH_UNITS: dict[str, NodeKind] = {
    "編": "part",
    "章": "chapter",
    "節": "section",
    "款": "subsection",
    "目": "division",
}
_KO_UNITS: dict[str, NodeKind] = {
    "편": "part",
    "장": "chapter",
    "절": "section",
    "관": "subsection",
}
LEVELS: dict[NodeKind, int] = {
    "part": 1,
    "chapter": 2,
    "section": 3,
    "subsection": 4,
    "division": 5,
    "article": 6,
    "paragraph": 7,
    "subparagraph": 8,
    "item": 9,
}
_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"
_HANGUL_ORDER = "가나다라마바사아자차카타파하"
_ROMAN = re.compile(r"^(?:i{1,3}|iv|vi{0,3}|ix|x{1,3})$")
_MARKERS: tuple[tuple[re.Pattern[str], NodeKind], ...] = (
    (re.compile(rf"^(?P<m>[{_CIRCLED}])\s*"), "paragraph"),
    (re.compile(rf"^(?P<m>[{HAN_NUMERALS}]+)、\s*"), "subparagraph"),
    (re.compile(rf"^[（(](?P<m>[{HAN_NUMERALS}]+)[）)]\s*"), "item"),
    (re.compile(r"^(?P<m>\d{1,3})[.)]\s+"), "subparagraph"),
    (re.compile(rf"^(?P<m>[{_HANGUL_ORDER}])[.)]\s*"), "item"),
    (re.compile(r"^\((?P<m>\d{1,3})\)\s*"), "paragraph"),
    (re.compile(r"^\((?P<m>[ivx]{1,4})\)\s+"), "item"),
    (re.compile(r"^\((?P<m>[a-z])\)\s+"), "subparagraph"),
)
MAX_HEADING_CHARS = 60
"""A heading line is short; a longer block that starts so is a sentence about one."""


@dataclass(frozen=True)
class Opening:
    """What a block opens: its kind, its number as printed and normalized, its title, and the
    text after them."""

    kind: NodeKind
    label: str
    number: str
    title: str
    rest: str
    deleted: bool


def han_number(text: str) -> int | None:
    """``十五`` -> 15, ``一百零三`` -> 103, ``三十`` -> 30; None for anything else."""
    if not text or any(ch not in _HAN_DIGITS and ch not in _HAN_UNITS for ch in text):
        return None
    total, digit = 0, None
    for ch in text:
        if ch in _HAN_DIGITS:
            digit = _HAN_DIGITS[ch]
        else:
            total += (1 if digit is None else digit) * _HAN_UNITS[ch]
            digit = None
    return total + (digit or 0)


def normal_number(text: str) -> str:
    """A printed number in Arabic digits: ``３０`` -> ``30``, ``三十`` -> ``30``, ``30 - 1`` ->
    ``30-1``; Roman numerals and letters kept as printed."""
    text = unicodedata.normalize("NFKC", text).replace(" ", "")
    value = han_number(text)
    return str(value) if value is not None else text


def opening(text: str) -> Opening | None:
    """The heading or article a block of text opens, or None. The text after the label is
    kept as read (the patterns take full-width digits, spaces and brackets as they are)."""
    text = text.strip()
    return _heading(text) or _article(text)


def _heading(text: str) -> Opening | None:
    if len(text) > MAX_HEADING_CHARS:
        return None
    for pattern, units in ((_ZH_HEADING, _ZH_UNITS), (_KO_HEADING, _KO_UNITS)):
        match = pattern.match(text)
        if match:
            label = text[: match.start("rest")].strip()
            number = normal_number(match.group("n"))
            title = match.group("rest").strip()
            return Opening(units[match.group("unit")], label, number, title, "", False)
    match = _EN_HEADING.match(text)
    if match:
        kind: NodeKind = "part" if match.group("unit").lower() == "part" else "chapter"
        label = text[: match.start("rest")].strip().rstrip(".:")
        return Opening(kind, label, match.group("n"), match.group("rest").strip(), "", False)
    return None


def _article(text: str) -> Opening | None:
    for pattern in (_ZH_ARTICLE, _KO_ARTICLE, _EN_ARTICLE):
        match = pattern.match(text)
        if match is None:
            continue
        after = text[match.end() :]
        if (
            pattern is _ZH_ARTICLE
            and after.lstrip().startswith(_REFERENCE_AFTER)
            and not after[:1].isspace()
        ):
            return None
        if pattern is _KO_ARTICLE and after.startswith(_KO_PARTICLES):
            return None
        number = normal_number(match.group("n"))
        sub = match.groupdict().get("sub")
        if sub:
            number = f"{number}-{normal_number(sub)}"
        label = text[: match.end()]
        title = ""
        titled = _TITLE.match(after)
        if titled and not _DELETED.match(after):
            title, after = titled.group("title").strip(), after[titled.end() :]
        rest = after.strip()
        return Opening("article", label, number, title, rest, bool(_DELETED.match(rest)))
    return None


ARTICLE_ID_PREFIX = "art"


def node_id(kind: NodeKind, number: str) -> str:
    """The structure tree's id of a heading or article: ``art-30-1``, ``chapter-2`` (a number
    printed twice gets ``.2`` on its second node, in the tree)."""
    return f"{ARTICLE_ID_PREFIX if kind == 'article' else kind}-{number}"


_ASKED_ID = re.compile(rf"^{ARTICLE_ID_PREFIX}-(?P<n>{_EN_NUMBER})(?P<nth>\.\d+)?$", re.I)
_ASKED_EN = re.compile(r"^(?:article|art\.?)\s*(?P<n>\S.*)$", re.IGNORECASE)
_ASKED_PLAIN = re.compile(
    rf"^(?:\d+[A-Za-z]?(?:\s*-\s*\d+)?|(?P<han>[{HAN_NUMERALS}]+)(?:之(?P<sub>[{HAN_NUMERALS}]+))?)$"
)


def asked_article(text: str) -> str | None:
    """The id of the article a person asks for, in any form a statute prints or the tree names
    (``Article 30-1``, ``Art. 30-1``, ``art 30-1``, ``第30-1條``, ``第三十條之一``, ``제30조의2``,
    ``30-1``, ``三十之一``, ``art-30-1``; full-width digits too), read by the same patterns as
    the document's own labels. None for anything else, a label with text after it included:
    ``Article 30-1 text`` names no article rather than article 30."""
    text = " ".join(unicodedata.normalize("NFKC", text).split())
    match = _ASKED_ID.match(text)
    if match:
        return node_id("article", match.group("n")) + (match.group("nth") or "")
    plain = _ASKED_PLAIN.match(text)
    if plain:
        han, sub = plain.group("han"), plain.group("sub")
        number = normal_number(han or text) + (f"-{normal_number(sub)}" if sub else "")
        return node_id("article", number) if number.isascii() else None
    asked = _ASKED_EN.match(text)
    opened = _article(f"Article {asked.group('n')}" if asked else text)
    if opened is None or opened.rest:
        return None
    return node_id("article", opened.number)


def number_order(number: str) -> tuple[int, str, int]:
    """Where an article number sorts: ``30`` < ``30-1`` < ``30-2`` < ``31``; ``5A`` after ``5``."""
    match = re.fullmatch(r"(\d+)([A-Za-z]?)(?:-(\d+))?(?:\.\d+)?", number)
    if match is None:
        return (0, number, 0)
    return (int(match.group(1)), match.group(2), int(match.group(3) or 0))


_ORDERED = re.compile(r"\d+[A-Za-z]?(?:-\d+)?")


def follows(number: str, current: str | None) -> bool:
    """Whether article ``number`` is the next one printed after ``current``: ``31`` after
    ``30`` or ``30-2``, ``30-1`` after ``30``, ``30-2`` after ``30-1``, ``3-2`` after ``3`` (a
    Korean statute's first inserted article is ``제3조의2``)."""
    if current is None or not (_ORDERED.fullmatch(number) and _ORDERED.fullmatch(current)):
        return False
    (main, letter, sub), (was, was_letter, was_sub) = number_order(number), number_order(current)
    if (main, letter) == (was, was_letter):
        return sub == was_sub + 1 or (was_sub == 0 and sub == 2)
    return main == was + 1 and not letter and sub == 0


_GOES_ON = re.compile(
    r"^(?:[,，、ㆍ·]|제\s*\d+\s*[항호]|각\s*[항호]|단서|본문|전단|후단|但書|本文|各[款項])"
)
"""What goes on from a cited article number besides the words :data:`_REFERENCE_AFTER` and
:data:`_KO_PARTICLES` list: a list of numbers, a part of the article (``제1항``, ``각 호``,
``단서``, ``但書``, ``各款``)."""


def cites_on(rest: str) -> bool:
    """Whether the text after an article number goes on as a reference to that article, not
    as the article's own text: ``規定``, ``之規定``, ``第一項``, ``及``, ``、``; ``에 따라``,
    ``의 규정``, ``제1항``, ``및``, ``각 호``."""
    rest = rest.lstrip()
    starts = (*_REFERENCE_AFTER, "之", *_KO_PARTICLES, "의")
    return rest.startswith(starts) or bool(_GOES_ON.match(rest))


@dataclass(frozen=True)
class Marker:
    """A numbered paragraph, subparagraph or item opening a line of an article."""

    kind: NodeKind
    label: str
    number: str
    rest: str


def item_marker(text: str) -> Marker | None:
    """The paragraph (①, (1)), subparagraph (一、, 1., (a)) or item (（一）, 가., (i)) a line of
    an article opens, with its number normalized (② -> 2, 三 -> 3, 다 -> 3, iv -> 4)."""
    text = text.strip()
    for pattern, kind in _MARKERS:
        match = pattern.match(text)
        if match is None:
            continue
        mark = match.group("m")
        if kind == "item" and _ROMAN.match(mark):
            number = str(_roman(mark))
        elif mark in _CIRCLED:
            number = str(_CIRCLED.index(mark) + 1)
        elif mark in _HANGUL_ORDER:
            number = str(_HANGUL_ORDER.index(mark) + 1)
        elif len(mark) == 1 and mark.isascii() and mark.isalpha():
            number = mark
        else:
            number = normal_number(mark)
        return Marker(kind, text[: match.end()].strip(), number, text[match.end() :].strip())
    return None


def _roman(text: str) -> int:
    values = {"i": 1, "v": 5, "x": 10}
    total = 0
    for index, ch in enumerate(text):
        value = values[ch]
        total += -value if index + 1 < len(text) and values[text[index + 1]] > value else value
    return total


_CITED = re.compile(
    rf"第\s*(?P<zh>\d+(?:\s*-\s*\d+)?|[{HAN_NUMERALS}]+)\s*條(?:\s*之\s*(?P<zhsub>[{HAN_NUMERALS}\d]+))?"
    r"|제\s*(?P<ko>\d+)\s*조(?:\s*의\s*(?P<kosub>\d+))?"
    rf"|\b(?:Article|Art\.)\s+(?P<en>{_EN_NUMBER})\b"
)


def citation_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` names an article (``第三十二條之一``, ``제4조의2``, ``Article 5``): spans a
    cut must not fall inside."""
    return [match.span() for match in _CITED.finditer(text)]


def cited_articles(text: str) -> list[str]:
    """Normalized numbers of the articles a text cites, in order, each once: ``依第三十二條第
    一項`` -> ``32``, ``제4조의2에 따라`` -> ``4-2``, ``under Article 5`` -> ``5``."""
    found: list[str] = []
    for match in _CITED.finditer(text):
        main = match.group("zh") or match.group("ko") or match.group("en")
        sub = match.group("zhsub") or match.group("kosub")
        number = normal_number(main) + (f"-{normal_number(sub)}" if sub else "")
        if number not in found:
            found.append(number)
    return found
