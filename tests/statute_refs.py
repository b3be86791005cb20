"""The real_legal references read with patterns of the tests' own (never pagereader's): the
articles each statute's reference pages print, their text, their numbered paragraphs, and the
pages each article is printed on."""

from __future__ import annotations

import re

from shared_data import shared

_HAN = "〇零一二三四五六七八九十百千"
# the references' own article lines, read with a pattern of this test's own: a label alone on
# its line or followed by a space ("第七十八條至第八十三條規定" opens a sentence, not an article)
_REF_ARTICLE = re.compile(
    rf"^(?:第\s*(?P<zh>[0-9]+(?:-[0-9]+)?|[{_HAN}]+)\s*條(?:之(?P<zhsub>[{_HAN}]+))?"
    r"|제(?P<ko>\d+)조(?:의(?P<kosub>\d+))?)(?:\s+(?P<rest>.*))?$"
)
_REF_HEADING = re.compile(r"^(?:제\d+[편장절관]|第\s*\S+\s*[編章節])")


def _han(text: str) -> int:
    digits = {c: i for i, c in enumerate("〇一二三四五六七八九")} | {"零": 0}
    total, digit = 0, 0
    for ch in text:
        if ch in digits:
            digit = digits[ch]
        else:
            total += (digit or 1) * {"十": 10, "百": 100, "千": 1000}[ch]
            digit = 0
    return total + digit


def _number(main: str, sub: str | None) -> str:
    value = main if main[0].isdigit() else str(_han(main))
    if sub:
        value += "-" + (sub if sub.isdigit() else str(_han(sub)))
    return value


_REF_ITEM = re.compile(r"^(?:[①-⑳]|[一二三四五六七八九十]+、)")
"""A reference line that opens a numbered paragraph (①) or subparagraph (一、)."""


def reference_items(stem: str) -> dict[str, list[str]]:
    """Per article number, the markers of the numbered paragraphs and subparagraphs its
    reference lines open (``①``, ``一、``), in order."""
    found: dict[str, list[str]] = {}
    current = ""
    for _, line in _reference_lines(stem):
        match = _REF_ARTICLE.match(line.strip())
        if match:
            current = _number(match["zh"] or match["ko"], match["zhsub"] or match["kosub"])
            found[current] = []
        elif _REF_HEADING.match(line.strip()):
            current = ""
        elif current and (item := _REF_ITEM.match(line.strip())):
            found[current].append(item.group(0))
    return found


def _reference_lines(stem: str) -> list[tuple[int, str]]:
    """(page, line) of the statute's two reference pages, in order."""
    return [
        (page, line)
        for page in (1, 2)
        for line in shared("eval", "real_legal", f"{stem}.p{page}.ref.txt")
        .read_text(encoding="utf-8")
        .splitlines()
    ]


def reference_articles(stem: str) -> list[tuple[str, str]]:
    """(number, text after the label) of every article the reference pages print."""
    articles: list[tuple[str, list[str]]] = []
    for _, line in _reference_lines(stem):
        match = _REF_ARTICLE.match(line.strip())
        if match:
            number = _number(match["zh"] or match["ko"], match["zhsub"] or match["kosub"])
            articles.append((number, [match["rest"] or ""]))
        elif _REF_HEADING.match(line.strip()):
            articles.append(("", []))  # a heading ends the article above it
        elif articles:
            articles[-1][1].append(line)
    return [(n, "".join(parts)) for n, parts in articles if n]


def reference_pages(stem: str) -> dict[str, tuple[int, ...]]:
    """Per article number, the reference pages its lines are on: the page of its label, and
    the next page too when that page opens with lines before any label or heading."""
    pages: dict[str, list[int]] = {}
    current = ""
    for page, line in _reference_lines(stem):
        match = _REF_ARTICLE.match(line.strip())
        if match:
            current = _number(match["zh"] or match["ko"], match["zhsub"] or match["kosub"])
            pages[current] = [page]
        elif _REF_HEADING.match(line.strip()):
            current = ""
        elif current and line.strip() and page not in pages[current]:
            pages[current].append(page)
    return {number: tuple(found) for number, found in pages.items()}
