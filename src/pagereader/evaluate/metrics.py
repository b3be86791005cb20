"""Text and table metrics for comparing an engine's page text with a reference.

Every metric here is a pure function of two strings; the text normalization, character
consistency and critical tokens are the verifier's own (checks/), so that the evaluation
runner, the verifier and the tests all agree on one definition. Formulas are in each
docstring and in the README.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from apted import APTED, Config
from lxml import html as lxml_html
from rapidfuzz.distance import Levenshtein

from pagereader.checks.critical import DEFAULT_CRITICAL as CHECK_PATTERNS
from pagereader.checks.critical import NUMBER, classed_tokens, token_changes
from pagereader.checks.text import VARIANT_GLYPHS, strip_markdown
from pagereader.checks.text import char_consistency as char_consistency

logger = logging.getLogger(__name__)

_VARIANT_TABLE = str.maketrans(VARIANT_GLYPHS)
_WS = re.compile(r"\s+")


def normalize(
    text: str,
    *,
    fold_variants: bool = False,
    markdown: bool = False,
    keep_spaces: bool = False,
) -> str:
    """NFKC, optional Markdown stripping and variant folding, then whitespace removed.

    Whitespace carries no meaning between CJK characters and differs between engines, so
    character metrics drop it; ``keep_spaces`` collapses it to single spaces instead (for
    word-level metrics and critical tokens).
    """
    if markdown:
        text = strip_markdown(text)
    text = unicodedata.normalize("NFKC", text)
    if fold_variants:
        text = text.translate(_VARIANT_TABLE)
    if keep_spaces:
        return _WS.sub(" ", text).strip()
    return _WS.sub("", text)


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


def critical_tokens(text: str, patterns: Sequence[str]) -> list[str]:
    """The ordered, non-overlapping matches of ``patterns`` in NFKC text, spaces removed.

    The patterns are joined into one alternation in the order given, so at any position the
    earlier pattern wins and a longer alternative listed first (``不得`` before ``得``) is
    taken whole; an article number's digits are not counted again as a plain number.
    """
    return [token for token, _ in classed_tokens(text, patterns)]


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

_MD_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{1,}:?\s*(?:\|\s*:?-{1,}:?\s*)+\|?\s*$")


def _split_md_row(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", body)]


def markdown_tables(text: str) -> list[list[list[str]]]:
    """Pipe tables in Markdown as lists of rows of cell strings (the separator row dropped).

    A table is a header row, a separator row of dashes, and the following rows with a pipe.
    """
    lines = text.splitlines()
    tables: list[list[list[str]]] = []
    i = 0
    while i < len(lines) - 1:
        if "|" in lines[i] and _MD_TABLE_SEP.match(lines[i + 1]):
            rows = [_split_md_row(lines[i])]
            j = i + 2
            while j < len(lines) and "|" in lines[j] and lines[j].strip():
                rows.append(_split_md_row(lines[j]))
                j += 1
            tables.append(rows)
            i = j
        else:
            i += 1
    return tables


def html_tables(text: str) -> list[lxml_html.HtmlElement]:
    """Every outermost ``<table>`` element in a text that may mix Markdown and HTML."""
    if "<table" not in text.lower():
        return []
    try:
        root = lxml_html.fromstring(f"<div>{text}</div>")
    except (ValueError, lxml_html.etree.ParserError):
        logger.debug("unparsable HTML in table text", exc_info=True)
        return []
    return [t for t in root.iter("table") if not any(a.tag == "table" for a in t.iterancestors())]


def rows_to_html(rows: Sequence[Sequence[str]]) -> str:
    """A grid of cell strings as a plain HTML table (how Markdown tables enter TEDS)."""
    body = "".join(
        "<tr>" + "".join(f"<td>{_escape(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table>{body}</table>"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class _Node:
    """A table tree node: tag, spans, and cell text as a character sequence."""

    def __init__(self, tag: str, colspan: int = 1, rowspan: int = 1, content: str = "") -> None:
        self.tag = tag
        self.colspan = colspan
        self.rowspan = rowspan
        self.content = content
        self.children: list[_Node] = []


class _TedsConfig(Config):
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


def _span(cell: lxml_html.HtmlElement, name: str) -> int:
    try:
        return max(1, int(cell.get(name, "1")))
    except ValueError:
        return 1


def _table_tree(table: lxml_html.HtmlElement, structure_only: bool) -> _Node:
    root = _Node("table")
    for tr in table.iter("tr"):
        row = _Node("tr")
        for cell in tr:
            if not isinstance(cell.tag, str) or cell.tag not in ("td", "th"):
                continue
            content = "" if structure_only else normalize(cell.text_content())
            row.children.append(
                _Node("td", _span(cell, "colspan"), _span(cell, "rowspan"), content)
            )
        root.children.append(row)
    return root


def _size(node: _Node) -> int:
    return 1 + sum(_size(c) for c in node.children)


def teds(hypothesis_html: str, reference_html: str, *, structure_only: bool = False) -> float:
    """Tree-Edit-Distance-based Similarity of two HTML tables (Zhong et al., ECCV 2020).

    ``TEDS(Ta, Tb) = 1 - EditDist(Ta, Tb) / max(|Ta|, |Tb|)`` where ``|T|`` counts nodes
    (table, rows, cells) and EditDist is the APTED tree edit distance with PubTabNet's costs:
    insert and delete 1, rename 1 between different tags or spans, and between two cells the
    normalized Levenshtein distance of their texts (``th`` is read as ``td``). With
    ``structure_only`` contents are ignored (TEDS-S). The first table of each side is used;
    a side with no table scores 0.0 (1.0 when both have none).
    """
    hyp_tables = html_tables(hypothesis_html)
    ref_tables = html_tables(reference_html)
    if not ref_tables or not hyp_tables:
        return 1.0 if not ref_tables and not hyp_tables else 0.0
    a = _table_tree(hyp_tables[0], structure_only)
    b = _table_tree(ref_tables[0], structure_only)
    distance = float(APTED(a, b, _TedsConfig()).compute_edit_distance())
    return 1.0 - distance / max(_size(a), _size(b))


def page_tables_html(text: str) -> list[str]:
    """Every table of a page as HTML: HTML tables as written, pipe tables converted."""
    found = [lxml_html.tostring(t, encoding="unicode") for t in html_tables(text)]
    found.extend(rows_to_html(rows) for rows in markdown_tables(text))
    return found


def page_teds(hypothesis: str, reference: str) -> float | None:
    """Mean TEDS over the reference's tables, paired in order with the hypothesis's tables.

    ``None`` when the reference has no table; a reference table with no counterpart scores 0.
    """
    refs = page_tables_html(reference)
    if not refs:
        return None
    hyps = page_tables_html(hypothesis)
    scores = [teds(hyps[i], ref) if i < len(hyps) else 0.0 for i, ref in enumerate(refs)]
    return sum(scores) / len(scores)
