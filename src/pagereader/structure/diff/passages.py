"""Running text compared word by word, each run that differs a change with its pages in both
versions: a document without articles whole, and a statute's text outside its articles (a
preamble, a promulgation line, chapter headings, a note after a heading), so that no change
hides there. Running text, not block by block, because two readings of one page cut it into
blocks differently (OCR reads a preamble and the first article as one block); what matters is
the words."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from pagereader.structure.diff.model import Change, ChangeKind
from pagereader.structure.diff.words import hunks
from pagereader.structure.numbering import opening
from pagereader.structure.tree import body_parts
from pagereader.types import PageResult

PageText = tuple[int, str]
"""A part of a page's text and the page it is on."""


def page_texts(pages: Sequence[PageResult]) -> list[PageText]:
    """The document's own text (no running header or footer), part by part."""
    return [(page.index, text) for page, _, text in body_parts(pages) if text.strip()]


def outside_articles(pages: Sequence[PageResult]) -> list[PageText]:
    """The parts of the document's text that are in no article, as the tree reads them (a
    heading's label and title, and what stands before the first article or between a
    heading and the next article); an article's label, title and text are compared article
    by article."""
    out: list[PageText] = []
    in_article = False
    for page, _, text in body_parts(pages):
        opened = opening(text)
        if opened is not None:
            in_article = opened.kind == "article"
        if not in_article and text.strip():
            out.append((page.index, text))
    return out


def running_text(texts: Sequence[PageText]) -> tuple[str, list[int], list[int]]:
    """The parts joined, each on a line of its own, with the offsets where each page's text
    starts and those pages' numbers."""
    joined: list[str] = []
    starts: list[int] = []
    numbers: list[int] = []
    at = 0
    for page, text in texts:
        if not numbers or numbers[-1] != page:
            starts.append(at)
            numbers.append(page)
        joined.append(text.strip() + "\n")
        at += len(joined[-1])
    return "".join(joined), starts, numbers


def _pages(starts: list[int], numbers: list[int], begin: int, end: int) -> tuple[int, ...]:
    if begin >= end or not numbers:
        return ()
    first = max(bisect.bisect_right(starts, begin) - 1, 0)
    last = max(bisect.bisect_right(starts, end - 1) - 1, 0)
    return tuple(numbers[first : last + 1])


def text_changes(
    old: Sequence[PageText], new: Sequence[PageText], patterns: Sequence[str]
) -> list[Change]:
    """One change per run of words that differs, in reading order; a run's pages are those
    of its words (none on the side where it is empty)."""
    old_text, old_starts, old_numbers = running_text(old)
    new_text, new_starts, new_numbers = running_text(new)
    changes: list[Change] = []
    for hunk in hunks(old_text, new_text, patterns):
        kind: ChangeKind = "added" if not hunk.old else "deleted" if not hunk.new else "changed"
        old_end, new_end = hunk.old_at + len(hunk.old), hunk.new_at + len(hunk.new)
        changes.append(
            Change(
                kind=kind,
                unit="passage",
                old_pages=_pages(old_starts, old_numbers, hunk.old_at, old_end),
                new_pages=_pages(new_starts, new_numbers, hunk.new_at, new_end),
                critical=hunk.critical,
                hunks=(hunk,),
                punctuation_only=hunk.punctuation_only,
            )
        )
    return changes
