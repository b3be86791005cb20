"""Two versions' articles paired: by number first, then by text for renumbered articles.

An article keeps its number unless a text nearly its own now stands under another number
(then it was renumbered: an article inserted or deleted before it shifts it). Pairs are taken
greedily, most alike first, a shared number counting for a little more, so that an unchanged
article stays with its number, and a shifted one follows its text rather than the number its
neighbour now holds. An article marked deleted (``（刪除）``, ``삭제``) and a very short one
pair by number only: their texts say too little to follow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from pagereader.text import is_han, normalize
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


def align(old: Sequence[StructureNode], new: Sequence[StructureNode]) -> list[Pair]:
    """Every article of both versions, paired or alone, in the new version's order (a deleted
    article after the new position of the old article before it)."""
    old_keys = [normalize(article_text(n), markdown=False) for n in old]
    new_keys = [normalize(article_text(n), markdown=False) for n in new]
    scores = process.cdist(old_keys, new_keys, scorer=fuzz.ratio) / 100.0 if old and new else None
    candidates: list[tuple[float, int, int]] = []
    for i, a in enumerate(old):
        for j, b in enumerate(new):
            sim = float(scores[i][j]) if scores is not None else 0.0
            same = a.number == b.number
            if same and (sim >= SAME_NUMBER_MIN or a.deleted or b.deleted):
                candidates.append((sim + SAME_NUMBER_BONUS, i, j))
            elif (
                not same
                and sim >= RENUMBERED_MIN
                and _followable(a, old_keys[i])
                and _followable(b, new_keys[j])
            ):
                candidates.append((sim, i, j))
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

    def sim_of(i: int, j: int) -> float:
        return round(float(scores[i][j]), 4) if scores is not None else 0.0

    placed: list[tuple[tuple[int, int, int], Pair]] = []
    anchor = -1
    for i, a in enumerate(old):
        if i in match:
            anchor = match[i]
            placed.append(((anchor, 0, i), Pair(a, new[anchor], sim_of(i, anchor))))
        else:
            placed.append(((anchor, 1, i), Pair(a, None)))
    placed += [((j, 0, -1), Pair(None, b)) for j, b in enumerate(new) if j not in taken]
    return [pair for _, pair in sorted(placed, key=lambda item: item[0])]
