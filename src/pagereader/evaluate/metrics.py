"""Text and table metrics for comparing an engine's page text with a reference.

Every metric here is a pure function of two strings; the text normalization and character
consistency (text.py), the tables (tables.py) and the critical tokens (checks/) are the
verifier's own, so that the evaluation runner, the verifier and the tests all agree on one
definition. Formulas are in each docstring and on the docs page Evaluate and time.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from apted import APTED, Config
from rapidfuzz.distance import Levenshtein

from pagereader.checks.critical import DEFAULT_CRITICAL as CHECK_PATTERNS
from pagereader.checks.critical import NUMBER, classed_tokens, token_changes
from pagereader.checks.critical import critical_tokens as critical_tokens
from pagereader.text.chars import char_consistency as char_consistency
from pagereader.text.chars import normalize as normalize
from pagereader.text.tables import read_html_tables, read_tables
from pagereader.types import Table

logger = logging.getLogger(__name__)


def cer(hypothesis: str, reference: str) -> float:
    """Character error rate: ``Lev(h, r) / |r|`` on already normalized text.

    Not bounded by 1 (an engine that invents text can exceed it). An empty reference gives
    0.0 for an empty hypothesis and 1.0 otherwise.
    """
    if not reference:
        return 0.0 if not hypothesis else 1.0
    return Levenshtein.distance(hypothesis, reference) / len(reference)


def wer(hypothesis: str, reference: str) -> float:
    """Word error rate: ``Lev(h_words, r_words) / |r_words|``, words split on whitespace.

    Meaningful only for space-delimited languages (en, ko); the runner leaves it out for
    Chinese and Japanese. Takes text with spaces kept (``normalize(..., keep_spaces=True)``).
    """
    ref_words = reference.split()
    hyp_words = hypothesis.split()
    if not ref_words:
        return 0.0 if not hyp_words else 1.0
    return Levenshtein.distance(hyp_words, ref_words) / len(ref_words)


SPACE_DELIMITED: frozenset[str] = frozenset({"en", "ko", "de", "fr", "es", "it", "pt", "ar"})

# The verifier's patterns per language, numbers last: one definition for both.
DEFAULT_CRITICAL: dict[str, tuple[str, ...]] = {
    lang: (*patterns, NUMBER) for lang, patterns in CHECK_PATTERNS.items()
}


def critical_patterns(lang: str, extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The given patterns, or the defaults for ``lang`` (its base language as a fallback)."""
    given = tuple(extra)
    if given:
        return given
    if lang in DEFAULT_CRITICAL:
        return DEFAULT_CRITICAL[lang]
    base = lang.split("-")[0]
    if base == "zh":
        return DEFAULT_CRITICAL["zh-Hant"]
    return DEFAULT_CRITICAL.get(base, (NUMBER,))


@dataclass(frozen=True)
class CriticalResult:
    """Critical-token agreement of one page: the two sequences and their differences."""

    ok: bool
    score: float
    reference: tuple[str, ...]
    hypothesis: tuple[str, ...]
    changes: tuple[str, ...] = field(default=())


def critical_agreement(hypothesis: str, reference: str, patterns: Sequence[str]) -> CriticalResult:
    """Critical-token agreement: the token sequences must be equal.

    ``ok = (T(h) == T(r))`` where ``T`` is :func:`critical_tokens`; ``score = 1 -
    Lev(T(h), T(r)) / max(|T(h)|, |T(r)|)`` over tokens (1.0 when both are empty).
    ``changes`` lists each edit as ``ref->hyp``, ``-ref`` (dropped) or ``+hyp`` (invented).
    """
    ref_classed = classed_tokens(reference, patterns)
    hyp_classed = classed_tokens(hypothesis, patterns)
    ref = [t for t, _ in ref_classed]
    hyp = [t for t, _ in hyp_classed]
    longest = max(len(ref), len(hyp))
    score = 1.0 if longest == 0 else 1.0 - Levenshtein.distance(hyp, ref) / longest
    changes = [] if ref == hyp else token_changes(ref_classed, hyp_classed)
    return CriticalResult(ref == hyp, score, tuple(ref), tuple(hyp), tuple(changes))


# --- tables -------------------------------------------------------------------------------


class _Node:
    """A table tree node: tag, spans, and cell text as a character sequence."""

    def __init__(self, tag: str, colspan: int = 1, rowspan: int = 1, content: str = "") -> None:
        self.tag = tag
        self.colspan = colspan
        self.rowspan = rowspan
        self.content = content
        self.children: list[_Node] = []


class _TedsConfig(Config):  # type: ignore[misc]
    """PubTabNet's TEDS costs: insert/delete 1; rename 1 unless same tag and spans, and for
    cells then the normalized Levenshtein distance of their contents."""

    valuecls = float

    def rename(self, a: _Node, b: _Node) -> float:
        if a.tag != b.tag or a.colspan != b.colspan or a.rowspan != b.rowspan:
            return 1.0
        if a.tag == "td":
            longest = max(len(a.content), len(b.content))
            return 0.0 if longest == 0 else Levenshtein.distance(a.content, b.content) / longest
        return 0.0

    def children(self, node: _Node) -> list[_Node]:
        return node.children


def _table_tree(table: Table, structure_only: bool) -> _Node:
    """The table as PubTabNet's tree: rows, then the cells starting in each row, left to right."""
    root = _Node("table")
    rows: list[_Node] = [_Node("tr") for _ in range(table.rows)]
    for cell in sorted(table.cells, key=lambda cell: (cell.row, cell.col)):
        content = "" if structure_only else normalize(cell.text, markdown=False)
        rows[cell.row].children.append(_Node("td", cell.col_span, cell.row_span, content))
    root.children = rows
    return root


def _size(node: _Node) -> int:
    return 1 + sum(_size(c) for c in node.children)


def table_teds(hypothesis: Table, reference: Table, *, structure_only: bool = False) -> float:
    """Tree-Edit-Distance-based Similarity of two tables (Zhong et al., ECCV 2020).

    ``TEDS(Ta, Tb) = 1 - EditDist(Ta, Tb) / max(|Ta|, |Tb|)`` where ``|T|`` counts nodes
    (table, rows, cells) and EditDist is the APTED tree edit distance with PubTabNet's costs:
    insert and delete 1, rename 1 between different tags or spans, and between two cells the
    normalized Levenshtein distance of their texts (header cells are read as plain cells).
    With ``structure_only`` contents are ignored (TEDS-S).
    """
    a = _table_tree(hypothesis, structure_only)
    b = _table_tree(reference, structure_only)
    distance = float(APTED(a, b, _TedsConfig()).compute_edit_distance())
    return 1.0 - distance / max(_size(a), _size(b))


def teds(hypothesis_html: str, reference_html: str, *, structure_only: bool = False) -> float:
    """:func:`table_teds` of the first HTML table of each side; a side with no table scores
    0.0 (1.0 when both have none)."""
    hyp_tables = read_html_tables(hypothesis_html)
    ref_tables = read_html_tables(reference_html)
    if not ref_tables or not hyp_tables:
        return 1.0 if not ref_tables and not hyp_tables else 0.0
    return table_teds(hyp_tables[0], ref_tables[0], structure_only=structure_only)


def page_teds(hypothesis: str, reference: str) -> float | None:
    """Mean TEDS over the reference's tables (HTML or pipe tables, in reading order), paired
    in order with the hypothesis's tables.

    ``None`` when the reference has no table; a reference table with no counterpart scores 0.
    """
    refs = read_tables(reference)
    if not refs:
        return None
    hyps = read_tables(hypothesis)
    scores = [table_teds(hyps[i], ref) if i < len(hyps) else 0.0 for i, ref in enumerate(refs)]
    return sum(scores) / len(scores)
