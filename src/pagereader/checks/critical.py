"""Critical tokens: the few words whose misreading changes what a document means.

Numbers, article numbers (第三條, Article 5, Section 2.1, 제3조) and modal words (得 "may" /
應 "must" / 不得 "must not"; shall / may / must; 하여야 한다 / 할 수 있다) are extracted in reading
order from the answer and the reference, and the two sequences must be equal. Patterns are per
language and configurable; a longer alternative is listed before its prefix (不得 before 得) so
that it is taken whole.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pagereader.checks.base import Subject
from pagereader.text.chars import ARTICLE_NUMBERS, HAN_NUMERALS, normalize
from pagereader.types import Finding, Lang

NUMBER = r"\d+(?:[.,]\d+)*%?"
_HAN_NUMERAL = HAN_NUMERALS
DEFAULT_CRITICAL: dict[str, tuple[str, ...]] = {
    "zh-Hant": (
        *ARTICLE_NUMBERS["zh-Hant"],
        rf"第[{_HAN_NUMERAL}0-9]+[項款目章節]",
        "不得|不應|應|得|必須|須",
    ),
    "zh-Hans": (
        rf"第[{_HAN_NUMERAL}0-9]+条(?:之[{_HAN_NUMERAL}0-9]+)?",
        "不应|应|必须",
    ),
    "en": (
        *ARTICLE_NUMBERS["en"],
        r"\b(?:shall\s+not|must\s+not|may\s+not|shall|may|must)\b",
    ),
    "ko": (
        *ARTICLE_NUMBERS["ko"],
        r"제\s*\d+\s*항",
        r"하여야\s*한다|해야\s*한다|할\s*수\s*있다|할\s*수\s*없다|하여서는\s*아니\s*된다|아니\s*된다"
        r"|하지\s*못한다",
    ),
}


def critical_patterns(overrides: Mapping[Lang, Sequence[str]] | None = None) -> tuple[str, ...]:
    """Every language's patterns (``overrides`` replace a language's defaults), numbers last so
    an article number's digits are not counted again as a plain number."""
    merged = {lang: tuple(p) for lang, p in DEFAULT_CRITICAL.items()}
    merged.update({lang: tuple(p) for lang, p in (overrides or {}).items()})
    out: list[str] = []
    for patterns in merged.values():
        out.extend(p for p in patterns if p not in out and p != NUMBER)
    return (*out, NUMBER)


def classed_tokens(text: str, patterns: Sequence[str]) -> list[tuple[str, int]]:
    """Ordered, non-overlapping matches (spaces removed) with the index of their pattern."""
    if not patterns:
        return []
    combined = re.compile("|".join(f"(?P<c{i}>{p})" for i, p in enumerate(patterns)))
    flat = normalize(text, keep_spaces=True)
    return [
        (re.sub(r"\s+", "", m.group(0)), int(str(m.lastgroup)[1:]))
        for m in combined.finditer(flat)
        if m.group(0).strip()
    ]


def critical_tokens(text: str, patterns: Sequence[str]) -> list[str]:
    """The ordered, non-overlapping matches of ``patterns`` in NFKC text, spaces removed.

    The patterns are joined into one alternation in the order given, so at any position the
    earlier pattern wins and a longer alternative listed first (``不得`` before ``得``) is
    taken whole; an article number's digits are not counted again as a plain number.
    """
    return [token for token, _ in classed_tokens(text, patterns)]


def token_changes(ref: list[tuple[str, int]], hyp: list[tuple[str, int]]) -> list[str]:
    """A minimal edit script (``ref->hyp``, ``-ref`` dropped, ``+hyp`` invented) in which a
    token is only replaced by one of its own pattern, so a report reads "得->應"."""
    n, m = len(ref), len(hyp)
    cost = [[i + j if i == 0 or j == 0 else 0 for j in range(m + 1)] for i in range(n + 1)]

    def sub(a: tuple[str, int], b: tuple[str, int]) -> int:
        return 0 if a[0] == b[0] else (1 if a[1] == b[1] else 2)

    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost[i][j] = min(
                cost[i - 1][j] + 1,
                cost[i][j - 1] + 1,
                cost[i - 1][j - 1] + sub(ref[i - 1], hyp[j - 1]),
            )
    changes: list[str] = []
    i, j = n, m
    while i or j:
        if i and j:
            step = sub(ref[i - 1], hyp[j - 1])
            if step < 2 and cost[i][j] == cost[i - 1][j - 1] + step:
                if step:
                    changes.append(f"{ref[i - 1][0]}->{hyp[j - 1][0]}")
                i, j = i - 1, j - 1
                continue
        if i and cost[i][j] == cost[i - 1][j] + 1:
            changes.append(f"-{ref[i - 1][0]}")
            i -= 1
        else:
            changes.append(f"+{hyp[j - 1][0]}")
            j -= 1
    return changes[::-1]


@dataclass(frozen=True)
class CriticalResult:
    """The two token sequences and their differences."""

    ok: bool
    reference: tuple[str, ...]
    answer: tuple[str, ...]
    changes: tuple[str, ...] = field(default=())


def compare_critical(
    answer: str, reference: str, patterns: Sequence[str], ordered: bool = True
) -> CriticalResult:
    """Equal sequences (or, unordered, equal multisets) of critical tokens."""
    ref = classed_tokens(reference, patterns)
    hyp = classed_tokens(answer, patterns)
    ref_tokens = tuple(t for t, _ in ref)
    hyp_tokens = tuple(t for t, _ in hyp)
    if ordered:
        ok = ref_tokens == hyp_tokens
        changes = () if ok else tuple(token_changes(ref, hyp))
    else:
        missing = Counter(ref_tokens) - Counter(hyp_tokens)
        extra = Counter(hyp_tokens) - Counter(ref_tokens)
        ok = not missing and not extra
        changes = tuple([f"-{t}" for t in missing.elements()] + [f"+{t}" for t in extra.elements()])
    return CriticalResult(ok, ref_tokens, hyp_tokens, changes)


def check_critical(subject: Subject, patterns: Sequence[str]) -> list[Finding]:
    """An error when the answer's critical tokens differ from the reference's.

    Tables compare multisets: the order in which a text layer lists cells is a layout detail,
    while a changed or dropped number is not.
    """
    if subject.reference is None or subject.kind in ("figure", "formula"):
        return []
    if not normalize(subject.reference) or not normalize(subject.answer):
        return []
    result = compare_critical(
        subject.answer, subject.reference, patterns, ordered=subject.kind != "table"
    )
    if result.ok:
        return []
    shown = ", ".join(result.changes[:8]) + (" ..." if len(result.changes) > 8 else "")
    return [
        Finding(
            check="critical",
            severity="error",
            message=f"critical tokens differ from the {subject.reference_source}: {shown}",
        )
    ]
