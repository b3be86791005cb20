"""Two versions' articles paired: by number first, then by text for renumbered articles.

An article keeps its number unless a text nearly its own now stands under another number
(then it was renumbered: an article inserted or deleted before it shifts it). Pairs are taken
greedily, most alike first, a shared number counting for a little more, so that an unchanged
article stays with its number, and a shifted one follows its text rather than the number its
neighbour now holds. An article marked deleted (``（刪除）``, ``삭제``) and a very short one
pair by number only: their texts say too little to follow.

Texts are compared pair by pair (rapidfuzz), so the work grows with the product of the two
counts of articles: past ``ARTICLE_PAIRS_MAX`` pairs, an article's renumbered counterpart is
sought only within a band of new articles around its own place, and anywhere among articles
whose whole text is the same and found once in each version (``search_note`` says so).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from rapidfuzz import fuzz, process

from pagereader.text.chars import is_han, normalize
from pagereader.types import StructureNode

SAME_NUMBER_MIN = 0.5
"""Least similarity at which an article that kept its number is the same article changed
(below it, a text nearly the same elsewhere wins; else it is still paired, as a rewrite)."""
RENUMBERED_MIN = 0.85
"""Least similarity at which an article under another number is the same article, renumbered."""
SAME_NUMBER_BONUS = 0.1
"""What a shared number adds to similarity when pairs compete for an article."""
MIN_FOLLOW_CHARS = 12
"""Shorter texts (after normalization) are paired by number only."""
ARTICLE_PAIRS_MAX = 2_000_000
"""Most (old, new) article pairs whose texts are compared (about 5 s); past it, a renumbered
article is sought within a band of ``ARTICLE_PAIRS_MAX / (2 * old articles)`` new articles on
each side of its place."""
SIMILARITY_CHARS = 20_000
"""Characters of an article's text that its similarity reads (a longer article, such as one
that holds a long annex, is compared on its beginning)."""


@dataclass(frozen=True)
class Pair:
    """An article of the old version and its counterpart in the new one (None: deleted or
    added), with how alike their texts are (0-1; None for a lone article)."""

    old: StructureNode | None
    new: StructureNode | None
    similarity: float | None = None


def article_text(node: StructureNode) -> str:
    """What is compared of an article: its title (when printed, in the brackets of its
    script) and its text."""
    if not node.title:
        return node.text
    title = f"（{node.title}）" if any(is_han(ch) for ch in node.title) else f"({node.title})"
    return f"{title}\n{node.text}"


def articles(nodes: Sequence[StructureNode]) -> list[StructureNode]:
    """A tree's articles in reading order (their items stay inside their text)."""
    out: list[StructureNode] = []
    for node in nodes:
        if node.kind == "article":
            out.append(node)
        else:
            out.extend(articles(node.children))
    return out


def _followable(node: StructureNode, key: str) -> bool:
    return not node.deleted and len(key) >= MIN_FOLLOW_CHARS


def band(old: int, new: int) -> int | None:
    """How many new articles on each side of an old article's place its renumbered
    counterpart is sought among; None: all of them."""
    if old * new <= ARTICLE_PAIRS_MAX:
        return None
    return max(ARTICLE_PAIRS_MAX // (2 * old), 1)


def search_note(old: int, new: int) -> str | None:
    """What diff.json's notes say when renumbered articles were sought within a band."""
    width = band(old, new)
    if width is None:
        return None
    return (
        f"{old} and {new} articles, more pairs than the {ARTICLE_PAIRS_MAX:,} compared at "
        f"most: a renumbered article was sought among the {width} new articles on either side "
        "of its place, and anywhere by an identical text found once in each version"
    )


class _Scores:
    """Similarities of the article pairs that may pair: every pair, or those of the band."""

    def __init__(self, old: list[str], new: list[str]) -> None:
        self.old, self.new = old, new
        self.width = band(len(old), len(new))
        self.full: npt.NDArray[np.floating[Any]] | None = None
        self.known: dict[tuple[int, int], float] = {}
        if old and new and self.width is None:
            self.full = process.cdist(old, new, scorer=fuzz.ratio) / 100.0

    def __call__(self, i: int, j: int) -> float:
        if self.full is not None:
            return float(self.full[i][j])
        if (i, j) not in self.known:
            self.known[i, j] = fuzz.ratio(self.old[i], self.new[j]) / 100.0
        return self.known[i, j]

    def similar(self, least: float) -> list[tuple[int, int]]:
        """Pairs ``(i, j)`` at least ``least`` alike (of the band, and of identical texts
        found once in each version, when not every pair is compared)."""
        if self.full is not None:
            return [(int(i), int(j)) for i, j in zip(*np.nonzero(self.full >= least), strict=True)]
        if self.width is None:
            return []
        found: list[tuple[int, int]] = []
        for i, key in enumerate(self.old):
            mid = i * len(self.new) // len(self.old)
            low = max(mid - self.width, 0)
            row = process.cdist([key], self.new[low : mid + self.width + 1], scorer=fuzz.ratio)
            sims = row[0] / 100.0
            for k in np.nonzero(sims >= least)[0]:
                self.known[i, low + int(k)] = float(sims[k])
                found.append((i, low + int(k)))
        once = _found_once(self.new)
        for key, i in _found_once(self.old).items():
            j = once.get(key)
            if j is not None and (i, j) not in self.known:
                self.known[i, j] = 1.0
                found.append((i, j))
        return found


def _found_once(keys: list[str]) -> dict[str, int]:
    """Texts found exactly once, with their index."""
    seen: dict[str, int] = {}
    twice: set[str] = set()
    for index, key in enumerate(keys):
        if key in seen:
            twice.add(key)
        seen[key] = index
    return {key: index for key, index in seen.items() if key not in twice}


def align(old: Sequence[StructureNode], new: Sequence[StructureNode]) -> list[Pair]:
    """Every article of both versions, paired or alone, in the new version's order (a deleted
    article after the new position of the old article before it)."""
    old_keys = [normalize(article_text(n), markdown=False)[:SIMILARITY_CHARS] for n in old]
    new_keys = [normalize(article_text(n), markdown=False)[:SIMILARITY_CHARS] for n in new]
    scores = _Scores(old_keys, new_keys)
    numbered: dict[str, list[int]] = {}
    for j, b in enumerate(new):
        numbered.setdefault(b.number, []).append(j)
    candidates: list[tuple[float, int, int]] = []
    for i, a in enumerate(old):  # the same number: the same article unless rewritten
        for j in numbered.get(a.number, []):
            sim = scores(i, j)
            if sim >= SAME_NUMBER_MIN or a.deleted or new[j].deleted:
                candidates.append((sim + SAME_NUMBER_BONUS, i, j))
    for i, j in scores.similar(RENUMBERED_MIN):  # another number: renumbered
        a, b = old[i], new[j]
        if a.number != b.number and _followable(a, old_keys[i]) and _followable(b, new_keys[j]):
            candidates.append((scores(i, j), i, j))
    match: dict[int, int] = {}
    taken: set[int] = set()
    for _, i, j in sorted(candidates, key=lambda c: (-c[0], c[1], c[2])):
        if i not in match and j not in taken:
            match[i] = j
            taken.add(j)
    by_number = {b.number: j for j, b in reversed(list(enumerate(new))) if j not in taken}
    for i, a in enumerate(old):  # a rewrite: the number kept, the text not
        j_same = by_number.get(a.number)
        if i not in match and j_same is not None and j_same not in taken:
            match[i] = j_same
            taken.add(j_same)

    placed: list[tuple[tuple[int, int, int], Pair]] = []
    anchor = -1
    for i, a in enumerate(old):
        if i in match:
            anchor = match[i]
            placed.append(((anchor, 0, i), Pair(a, new[anchor], round(scores(i, anchor), 4))))
        else:
            placed.append(((anchor, 1, i), Pair(a, None)))
    placed += [((j, 0, -1), Pair(None, b)) for j, b in enumerate(new) if j not in taken]
    return [pair for _, pair in sorted(placed, key=lambda item: item[0])]
