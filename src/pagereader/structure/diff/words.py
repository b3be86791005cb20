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

import functools
import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import Indel

from pagereader.checks.critical import classed_tokens, critical_patterns, token_changes
from pagereader.structure.diff.model import Hunk
from pagereader.structure.diff.runs import WORD_PAIRS_MAX, Run, differing_runs
from pagereader.text.chars import CJK_PUNCTUATION_RANGES, HAN_NUMERALS, HAN_RANGES, normalize
from pagereader.types import Lang

_CLASS = "".join(f"{chr(low)}-{chr(high)}" for low, high in (*HAN_RANGES, *CJK_PUNCTUATION_RANGES))
_WORD = re.compile(rf"[{_CLASS}]|\d+(?:[.,]\d+)+%?|[^\W{_CLASS}]+%?|[^\s\w]")
HAN_AMOUNT = rf"[{HAN_NUMERALS}萬億]+"
"""Amounts, periods and counts written in Han numerals (新臺幣三萬元, 十日, 二個月): numbers to
a reader of a statute, though the verifier's number pattern reads Arabic digits only."""
CONTEXT_WORDS = 12
"""Unchanged words on each side of a run that are read with it for its critical tokens (an
article number such as 第一百二十三條 spans several words) and shown around it."""


def diff_patterns(overrides: dict[Lang, tuple[str, ...]] | None = None) -> tuple[str, ...]:
    """The verifier's critical-token patterns (with a config's overrides) and Han amounts."""
    return (*critical_patterns(overrides), HAN_AMOUNT)


TOKEN_PAIRS_MAX = 250_000
"""Most critical-token pairs (old tokens x new tokens) compared by the verifier's own edit
script (a table in Python: about 0.1 s and 2 MB at the cap); more are aligned by an LCS."""


@dataclass(frozen=True, slots=True)
class Word:
    """A word of a text: its comparison key and where it stands in the text."""

    key: str
    start: int
    end: int


@functools.lru_cache(maxsize=1 << 16)
def _key(word: str) -> str:
    """A word's comparison key (cached: a long text repeats its words)."""
    return normalize(word, markdown=False)


def words(text: str) -> list[Word]:
    """The words of ``text`` in order (see the module's docstring for what a word is)."""
    out: list[Word] = []
    for match in _WORD.finditer(text):
        key = _key(match.group(0))
        if key:
            out.append(Word(key, match.start(), match.end()))
    return out


def word_count(text: str) -> int:
    """How many words ``text`` has (as ``words`` cuts them, before normalization)."""
    return sum(1 for _ in _WORD.finditer(text))


def _aligned_token_changes(
    before: list[tuple[str, int]], after: list[tuple[str, int]]
) -> list[str]:
    """The verifier's notation for token lists too long for its edit script: aligned by an
    LCS, a replaced token paired in order with one of its own pattern (``得->應``), or, past
    WORD_PAIRS_MAX pairs, each token whose count differs, dropped or added."""
    if len(before) * len(after) > WORD_PAIRS_MAX:
        out: list[str] = []
        for sign, tokens, others in (("-", before, after), ("+", after, before)):
            surplus = Counter(tokens) - Counter(others)
            for token in tokens:  # in reading order
                if surplus[token] > 0:
                    surplus[token] -= 1
                    out.append(f"{sign}{token[0]}")
        return out
    changes: list[str] = []
    for op in Indel.opcodes(before, after):
        old, new = before[op.src_start : op.src_end], after[op.dest_start : op.dest_end]
        for a, b in itertools.zip_longest(old, new):
            if a is not None and b is not None and a[1] == b[1]:
                changes.append(f"{a[0]}->{b[0]}")
                continue
            changes += [f"-{a[0]}"] if a is not None else []
            changes += [f"+{b[0]}"] if b is not None else []
    return changes


def critical_changes(old: str, new: str, patterns: Sequence[str]) -> tuple[str, ...]:
    """The critical tokens that differ between two texts, as the verifier reports them."""
    before, after = classed_tokens(old, patterns), classed_tokens(new, patterns)
    if [t for t, _ in before] == [t for t, _ in after]:
        return ()
    if len(before) * len(after) <= TOKEN_PAIRS_MAX:
        return tuple(token_changes(before, after))
    return tuple(_aligned_token_changes(before, after))


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
    runs = differing_runs([w.key for w in old], [w.key for w in new])
    out: list[Hunk] = []
    for k, run in enumerate(runs):
        i1, i2, j1, j2 = run.i1, run.i2, run.j1, run.j2
        if "".join(w.key for w in old[i1:i2]) == "".join(w.key for w in new[j1:j2]):
            continue  # the same characters, spaced differently
        # context: up to CONTEXT_WORDS unchanged words, never into the next or last run
        low = runs[k - 1] if k else Run(0, 0, 0, 0)
        high = runs[k + 1] if k + 1 < len(runs) else Run(len(old), 0, len(new), 0)
        o0, o1 = _span(old_text, old, i1, i2)
        n0, n1 = _span(new_text, new, j1, j2)
        c0, _ = _span(old_text, old, max(low.i2, i1 - CONTEXT_WORDS), i1)
        _, c1 = _span(old_text, old, i2, min(high.i1, i2 + CONTEXT_WORDS))
        d0, _ = _span(new_text, new, max(low.j2, j1 - CONTEXT_WORDS), j1)
        _, d1 = _span(new_text, new, j2, min(high.j1, j2 + CONTEXT_WORDS))
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
                word_by_word=run.word_by_word,
            )
        )
    return out


def similarity(old: str, new: str) -> float:
    """How alike two texts are, 0-1, on their normalized characters (rapidfuzz's ratio)."""
    from rapidfuzz import fuzz

    return fuzz.ratio(normalize(old, markdown=False), normalize(new, markdown=False)) / 100.0
