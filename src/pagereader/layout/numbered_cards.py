"""Cards in a grid read in the order their numbers give.

Columns of cards, each opened by a numbered heading (``1. Euler's Identity`` over a formula
and a paragraph), are read down each column by the XY-cut. When the numbers run across the
rows instead (1 and 2 side by side, 3 and 4 under them), the page's own numbering says how to
read it: card by card, row by row. Nothing changes unless every column opens with a numbered
heading, the columns' order breaks the sequence and the rows' order keeps it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from pagereader.types import Block

_NUMBERED = re.compile(r"^\s*(\d{1,3})[.)]\s+\S")


def _number(block: Block) -> int | None:
    """The number opening a heading block (``2. Pythagorean Theorem``), or None."""
    if block.kind != "title" or not block.lines:
        return None
    match = _NUMBERED.match(block.lines[0].text)
    return int(match.group(1)) if match else None


def _cards(column: Sequence[Block]) -> list[list[Block]] | None:
    """A column's blocks as cards, each from a numbered heading to the next; None when the
    column does not open with one."""
    cards: list[list[Block]] = []
    for block in column:
        if _number(block) is not None:
            cards.append([block])
        elif cards:
            cards[-1].append(block)
        else:
            return None
    return cards


def _in_sequence(cards: Sequence[list[Block]]) -> bool:
    """Whether the cards' numbers run on one by one (1, 2, 3, ...)."""
    numbers = [_number(card[0]) or 0 for card in cards]
    return all(b == a + 1 for a, b in pairwise(numbers))


def by_numbered_rows(columns: Sequence[Sequence[Block]]) -> list[Block] | None:
    """The blocks of ``columns`` (each in reading order) card by card along the rows, when
    that reads the cards' numbers in sequence and the columns' order does not; else None."""
    cards: list[list[Block]] = []
    for column in columns:
        found = _cards(column)
        if not found:
            return None
        cards.extend(found)
    if len(cards) < 3 or _in_sequence(cards):
        return None
    tolerance = min(card[0].bbox[3] - card[0].bbox[1] for card in cards)
    rows: list[list[list[Block]]] = []
    for card in sorted(cards, key=lambda c: c[0].bbox[1]):
        if rows and card[0].bbox[1] - rows[-1][0][0].bbox[1] <= tolerance:
            rows[-1].append(card)
        else:
            rows.append([card])
    across = [card for row in rows for card in sorted(row, key=lambda c: c[0].bbox[0])]
    if not _in_sequence(across):
        return None
    return [block for card in across for block in card]
