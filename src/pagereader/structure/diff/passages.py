"""A document without articles compared as running text: the body text of every page in
reading order, word by word, each run that differs a change with its pages in both versions.
Running text, not block by block, because two readings of one page cut it into blocks
differently; what matters is the words."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from pagereader.structure.diff.model import Change, ChangeKind
from pagereader.structure.diff.words import hunks
from pagereader.structure.tree import BODY_KINDS
from pagereader.types import PageResult


def running_text(pages: Sequence[PageResult]) -> tuple[str, list[int], list[int]]:
    """The body text of ``pages`` (blocks on lines of their own) with the offsets where each
    page's text starts and the page numbers."""
    parts: list[str] = []
    starts: list[int] = []
    numbers: list[int] = []
    at = 0
    for page in pages:
        starts.append(at)
        numbers.append(page.index)
        for block in page.blocks:
            text = (block.text or "").strip()
            if block.block.kind in BODY_KINDS and text:
                parts.append(text + "\n")
                at += len(text) + 1
    return "".join(parts), starts, numbers


def _pages(starts: list[int], numbers: list[int], begin: int, end: int) -> tuple[int, ...]:
    if not numbers:
        return ()
    first = bisect.bisect_right(starts, begin) - 1
    last = bisect.bisect_right(starts, max(begin, end - 1)) - 1
    return tuple(numbers[max(first, 0) : max(last, 0) + 1])


def text_changes(
    old: Sequence[PageResult], new: Sequence[PageResult], patterns: Sequence[str]
) -> list[Change]:
    """One change per run of words that differs, in reading order."""
    old_text, old_starts, old_numbers = running_text(old)
    new_text, new_starts, new_numbers = running_text(new)
    changes: list[Change] = []
    for hunk in hunks(old_text, new_text, patterns):
        kind: ChangeKind = "added" if not hunk.old else "deleted" if not hunk.new else "changed"
        changes.append(
            Change(
                kind=kind,
                old_pages=_pages(old_starts, old_numbers, hunk.old_at, hunk.old_at + len(hunk.old)),
                new_pages=_pages(new_starts, new_numbers, hunk.new_at, hunk.new_at + len(hunk.new)),
                critical=hunk.critical,
                hunks=(hunk,),
                punctuation_only=hunk.punctuation_only,
            )
        )
    return changes
