"""Which words of two texts differ, in memory and time that a cap bounds.

Words are aligned by rapidfuzz's LCS (Indel), whose bit matrix grows with the product of the
two lengths (two 1000-page documents: about 20 GB). Two texts within ``WORD_PAIRS_MAX`` word
pairs are aligned whole. Longer ones are first anchored, as patience diff does, on runs of
``ANCHOR_WORDS`` words found once in each version, kept where they stand in the same order in
both (the longest increasing sequence); words are then compared only in the stretches between
anchors. Runs of words, not lines or paragraphs, because two readings of a page break lines
differently and a scan's slips may touch every line; a stretch without anchors that is itself
over the cap (two unrelated texts) is one run reported as not compared word by word
(``Run.word_by_word`` false) rather than aligned at any cost.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import Indel

WORD_PAIRS_MAX = 100_000_000
"""Most word pairs (old words x new words) aligned word by word at once: the LCS holds a bit
for each (12.5 MB) and takes about 0.1 s; a longer stretch without anchors is one coarse run."""
ANCHOR_WORDS = 4
"""Words in a run that anchors two long texts."""
MERGE_GAP = 1
"""Edits this many unchanged words apart or fewer are shown as one run."""


@dataclass(frozen=True)
class Run:
    """Words ``i1:i2`` of the old text and ``j1:j2`` of the new that differ; ``word_by_word``
    is false for a stretch too long to align (it may hold unchanged words too)."""

    i1: int
    i2: int
    j1: int
    j2: int
    word_by_word: bool = True


def _grams(keys: Sequence[str]) -> list[int]:
    """The hash of each run of ANCHOR_WORDS words, by where it starts."""
    return [hash(tuple(keys[k : k + ANCHOR_WORDS])) for k in range(len(keys) - ANCHOR_WORDS + 1)]


def _increasing(values: Sequence[int]) -> list[int]:
    """Indices of a longest strictly increasing subsequence of ``values`` (patience sorting)."""
    tails: list[int] = []  # the smallest last value of an increasing run of each length
    ends: list[int] = []  # its index
    before = [-1] * len(values)
    for index, value in enumerate(values):
        k = bisect.bisect_left(tails, value)
        before[index] = ends[k - 1] if k else -1
        tails[k : k + 1], ends[k : k + 1] = [value], [index]
    out: list[int] = []
    at = ends[-1] if ends else -1
    while at >= 0:
        out.append(at)
        at = before[at]
    return out[::-1]


def _anchors(old: Sequence[str], new: Sequence[str]) -> list[tuple[int, int]]:
    """Starts ``(i, j)`` of runs of ANCHOR_WORDS words found once in each text, increasing in
    both."""
    old_grams, new_grams = _grams(old), _grams(new)
    in_old, in_new = Counter(old_grams), Counter(new_grams)
    where = {g: j for j, g in enumerate(new_grams) if in_new[g] == 1 and in_old[g] == 1}
    pairs = [(i, where[g]) for i, g in enumerate(old_grams) if g in where]
    pairs = [
        (i, j)
        for i, j in pairs
        if old[i : i + ANCHOR_WORDS] == new[j : j + ANCHOR_WORDS]  # a hash may collide
    ]
    return [pairs[k] for k in _increasing([j for _, j in pairs])]


def _stretches(old: Sequence[str], new: Sequence[str]) -> list[tuple[int, int, int, int]]:
    """Word ranges ``(i1, i2, j1, j2)`` outside the anchors, in order (either may be empty)."""
    out: list[tuple[int, int, int, int]] = []
    i0 = j0 = 0  # the words before these are paired
    for i, j in _anchors(old, new):
        if i < i0 or j < j0:  # overlaps the anchor before: extends it, or else is left out
            if i - j == i0 - j0:
                i0, j0 = i + ANCHOR_WORDS, j + ANCHOR_WORDS
            continue
        if (i, j) != (i0, j0):
            out.append((i0, i, j0, j))
        i0, j0 = i + ANCHOR_WORDS, j + ANCHOR_WORDS
    if (i0, j0) != (len(old), len(new)):
        out.append((i0, len(old), j0, len(new)))
    return out


def _edits(old: Sequence[str], new: Sequence[str]) -> list[Run]:
    """Every edit, word by word where the stretch it lies in is within the cap."""
    if len(old) * len(new) <= WORD_PAIRS_MAX:
        stretches = [(0, len(old), 0, len(new))]
    else:
        stretches = _stretches(old, new)
    edits: list[Run] = []
    for i1, i2, j1, j2 in stretches:
        if (i2 - i1) * (j2 - j1) > WORD_PAIRS_MAX:
            edits.append(Run(i1, i2, j1, j2, word_by_word=False))
            continue
        for op in Indel.opcodes(old[i1:i2], new[j1:j2]):
            if op.tag != "equal":
                edits.append(
                    Run(i1 + op.src_start, i1 + op.src_end, j1 + op.dest_start, j1 + op.dest_end)
                )
    return edits


def differing_runs(old: Sequence[str], new: Sequence[str]) -> list[Run]:
    """Word index ranges that differ between two texts (their words' comparison keys); edits
    at most MERGE_GAP words apart are one run (``二十三`` -> ``三十四`` reads as one change, not
    two)."""
    runs: list[Run] = []
    for edit in _edits(old, new):
        if runs and edit.i1 - runs[-1].i2 <= MERGE_GAP:
            last = runs[-1]
            runs[-1] = Run(
                last.i1, edit.i2, last.j1, edit.j2, last.word_by_word and edit.word_by_word
            )
        else:
            runs.append(edit)
    return runs
