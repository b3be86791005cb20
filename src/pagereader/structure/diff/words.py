"""Two versions of a text compared word by word, with the critical tokens that changed.

Words are what each script writes as one: a Han character (Chinese has no spaces, and one
character such as 得 "may" or 應 "must" is a word of its own), a run of letters and digits (a
Korean eojeol such as ``신청인은``, an English word), a number with its separators
(``3,000.50``), and a punctuation mark alone (so a dropped full stop is not a changed word).
Words are compared as the verifier compares text (NFKC, variant glyphs folded), and a run that
differs only in its spacing (OCR reads Korean spacing unevenly) is no change. Critical tokens
are the verifier's own (checks/critical.py), so a diff flags exactly what the verifier guards.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import Indel

from pagereader.checks.critical import classed_tokens, critical_patterns, token_changes
from pagereader.structure.diff.model import Hunk
from pagereader.text import CJK_PUNCTUATION_RANGES, HAN_NUMERALS, HAN_RANGES, normalize
from pagereader.types import Lang

_CLASS = "".join(f"{chr(low)}-{chr(high)}" for low, high in (*HAN_RANGES, *CJK_PUNCTUATION_RANGES))
_WORD = re.compile(rf"[{_CLASS}]|\d+(?:[.,]\d+)+%?|[^\W{_CLASS}]+%?|[^\s\w]")
HAN_AMOUNT = rf"[{HAN_NUMERALS}萬億]+"
"""Amounts, periods and counts written in Han numerals (新臺幣三萬元, 十日, 二個月): numbers to
a reader of a statute, though the verifier's number pattern reads Arabic digits only."""
MERGE_GAP = 1
"""Edits this many unchanged words apart or fewer are shown as one run."""
CONTEXT_WORDS = 12
"""Unchanged words on each side of a run that are read with it for its critical tokens (an
article number such as 第一百二十三條 spans several words) and shown around it."""


def diff_patterns(overrides: dict[Lang, tuple[str, ...]] | None = None) -> tuple[str, ...]:
    """The verifier's critical-token patterns (with a config's overrides) and Han amounts."""
    return (*critical_patterns(overrides), HAN_AMOUNT)


@dataclass(frozen=True)
class Word:
    """A word of a text: its comparison key and where it stands in the text."""

    key: str
    start: int
    end: int


def words(text: str) -> list[Word]:
    """The words of ``text`` in order (see the module's docstring for what a word is)."""
    out: list[Word] = []
    for match in _WORD.finditer(text):
        key = normalize(match.group(0), markdown=False)
        if key:
            out.append(Word(key, match.start(), match.end()))
    return out


def critical_changes(old: str, new: str, patterns: Sequence[str]) -> tuple[str, ...]:
    """The critical tokens that differ between two texts, as the verifier reports them."""
    before, after = classed_tokens(old, patterns), classed_tokens(new, patterns)
    if [t for t, _ in before] == [t for t, _ in after]:
        return ()
    return tuple(token_changes(before, after))


def _runs(old: list[Word], new: list[Word]) -> list[tuple[int, int, int, int]]:
    """Word index ranges ``(i1, i2, j1, j2)`` that differ; edits at most MERGE_GAP words
    apart are one run (``二十三`` -> ``三十四`` reads as one change, not two)."""
    runs: list[tuple[int, int, int, int]] = []
    for op in Indel.opcodes([w.key for w in old], [w.key for w in new]):
        if op.tag == "equal":
            continue
        if runs and op.src_start - runs[-1][1] <= MERGE_GAP:
            runs[-1] = (runs[-1][0], op.src_end, runs[-1][2], op.dest_end)
        else:
            runs.append((op.src_start, op.src_end, op.dest_start, op.dest_end))
    return runs


def _span(text: str, ws: list[Word], i1: int, i2: int) -> tuple[int, int]:
    """Character offsets of words ``i1..i2`` (an empty range sits where word ``i1`` starts)."""
    if i1 < i2:
        return ws[i1].start, ws[i2 - 1].end
    at = ws[i1].start if i1 < len(ws) else len(text)
    return at, at


def hunks(old_text: str, new_text: str, patterns: Sequence[str]) -> list[Hunk]:
    """Every run of words that differs between the two texts, with its context and the
    critical tokens that change inside it; runs that differ only in spacing are left out."""
    old, new = words(old_text), words(new_text)
    runs = _runs(old, new)
    out: list[Hunk] = []
    for k, (i1, i2, j1, j2) in enumerate(runs):
        if "".join(w.key for w in old[i1:i2]) == "".join(w.key for w in new[j1:j2]):
            continue  # the same characters, spaced differently
        # context: up to CONTEXT_WORDS unchanged words, never into the next or last run
        low = runs[k - 1] if k else (0, 0, 0, 0)
        high = runs[k + 1] if k + 1 < len(runs) else (len(old), 0, len(new), 0)
        o0, o1 = _span(old_text, old, i1, i2)
        n0, n1 = _span(new_text, new, j1, j2)
        c0, _ = _span(old_text, old, max(low[1], i1 - CONTEXT_WORDS), i1)
        _, c1 = _span(old_text, old, i2, min(high[0], i2 + CONTEXT_WORDS))
        d0, _ = _span(new_text, new, max(low[3], j1 - CONTEXT_WORDS), j1)
        _, d1 = _span(new_text, new, j2, min(high[2], j2 + CONTEXT_WORDS))
        c0, c1, d0, d1 = min(c0, o0), max(c1, o1), min(d0, n0), max(d1, n1)
        before, after = old_text[c0:o0], old_text[o1:c1]
        out.append(
            Hunk(
                old=old_text[o0:o1],
                new=new_text[n0:n1],
                before=before[before.rfind("\n") + 1 :],
                after=after.split("\n", 1)[0],
                old_at=o0,
                new_at=n0,
                critical=critical_changes(old_text[c0:c1], new_text[d0:d1], patterns),
            )
        )
    return out


def similarity(old: str, new: str) -> float:
    """How alike two texts are, 0-1, on their normalized characters (rapidfuzz's ratio)."""
    from rapidfuzz import fuzz

    return fuzz.ratio(normalize(old, markdown=False), normalize(new, markdown=False)) / 100.0
