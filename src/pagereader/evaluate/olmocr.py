"""The olmOCR-bench rule scorer: present, absent, order, table, math and baseline rules.

Each rule is one JSONL line judged pass/fail against the Markdown of one page, following the
olmOCR-bench README. Math is compared as normalized LaTeX rather than rendered with KaTeX,
which is stricter than upstream: a formula written differently but rendering the same fails.
"""

from __future__ import annotations

import json
import logging
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from fuzzysearch import find_near_matches
from pydantic import BaseModel, ConfigDict
from rapidfuzz import fuzz

from pagereader.errors import InputError
from pagereader.evaluate.olmocr_tables import Grid, parse_tables

logger = logging.getLogger(__name__)

RuleType = Literal["present", "absent", "order", "table", "math", "baseline"]
RULE_TYPES: tuple[RuleType, ...] = ("present", "absent", "order", "table", "math", "baseline")


class OlmoRule(BaseModel):
    """One olmOCR-bench test line; fields not used by its type keep their defaults."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    pdf: str
    page: int = 1
    id: str
    type: RuleType
    max_diffs: int = 0
    checked: str | None = None
    text: str = ""
    case_sensitive: bool = True
    first_n: int | None = None
    last_n: int | None = None
    before: str = ""
    after: str = ""
    cell: str = ""
    up: str = ""
    down: str = ""
    left: str = ""
    right: str = ""
    top_heading: str = ""
    left_heading: str = ""
    ignore_markdown_tables: bool = False
    math: str = ""
    max_length: int | None = None
    max_length_skips_image_alt_tags: bool = False
    max_repeats: int = 30
    check_disallowed_characters: bool = True


@dataclass(frozen=True)
class RuleResult:
    """A rule's verdict on one candidate text, with the reason when it failed."""

    passed: bool
    reason: str = ""


def load_rules(path: Path) -> list[OlmoRule]:
    """The rules of one JSONL file, blank lines skipped; a bad line names its line number."""
    rules: list[OlmoRule] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rules.append(OlmoRule.model_validate(json.loads(line)))
        except ValueError as exc:
            raise InputError(
                f"line {number} is not an olmOCR-bench rule: {exc}",
                file=path,
                hint="each line must be a JSON object with pdf, id and a known type",
            ) from exc
    return rules


_QUOTES = str.maketrans(
    {
        "‘": "'",
        "’": "'",
        "‚": "'",
        "“": '"',
        "”": '"',
        "„": '"',
        "＿": "_",
        "–": "-",
        "—": "-",
        "‑": "-",
        "‒": "-",
        "−": "-",
        "µ": "μ",
    }
)


def normalize_text(text: str) -> str:
    """The benchmark's normalization, applied to rule text and candidate alike.

    ``<br>`` becomes a space; ``**b**``, ``__b__``, ``*i*``, ``_i_``, ``<b>`` and ``<i>``
    lose their markup; whitespace collapses to one space; NFC; curly quotes, dashes and the
    micro sign fold to ASCII quotes, ``-`` and mu.
    """
    text = re.sub(r"<br/?>", " ", text)
    text = re.sub(r"\*\*(.*?)\*\*", r"\1", text)
    text = re.sub(r"__(.*?)__", r"\1", text)
    text = re.sub(r"</?[bi]>", "", text)
    text = re.sub(r"(\*|_)(.*?)\1", r"\2", text)
    text = re.sub(r"\s+", " ", text)
    return unicodedata.normalize("NFC", text).translate(_QUOTES)


def _threshold(query: str, max_diffs: int) -> float:
    return 1.0 - max_diffs / (len(query) or 1)


def _check_text(rule: OlmoRule, content: str) -> RuleResult:
    """present / absent: ``partial_ratio(text, doc) >= 1 - max_diffs / len(text)``."""
    query = normalize_text(rule.text)
    doc = normalize_text(content)
    if not rule.case_sensitive:
        query, doc = query.lower(), doc.lower()
    if rule.first_n and rule.last_n:
        doc = doc[: rule.first_n] + doc[-rule.last_n :]
    elif rule.first_n:
        doc = doc[: rule.first_n]
    elif rule.last_n:
        doc = doc[-rule.last_n :]
    present = rule.type == "present"
    if len(doc) < len(query) - rule.max_diffs:
        # partial_ratio aligns on the shorter string: a near-empty page would match anything
        return RuleResult(not present, "" if not present else "candidate too short")
    ratio = fuzz.partial_ratio(query, doc) / 100.0
    found = ratio >= _threshold(query, rule.max_diffs)
    if found == present:
        return RuleResult(True)
    verb = "missing" if present else "present"
    return RuleResult(False, f"{query[:40]!r} {verb} (best ratio {ratio:.3f})")


def _check_order(rule: OlmoRule, content: str) -> RuleResult:
    """order: some fuzzy match of ``before`` starts before some fuzzy match of ``after``."""
    doc = normalize_text(content)
    before = normalize_text(rule.before)
    after = normalize_text(rule.after)
    first = find_near_matches(before, doc, max_l_dist=rule.max_diffs)
    second = find_near_matches(after, doc, max_l_dist=rule.max_diffs)
    if not first:
        return RuleResult(False, f"before text {before[:40]!r} not found")
    if not second:
        return RuleResult(False, f"after text {after[:40]!r} not found")
    if min(m.start for m in first) < max(m.start for m in second):
        return RuleResult(True)
    return RuleResult(False, "texts found in the wrong order")


def _matches(expected: str, text: str, max_diffs: int) -> bool:
    """``ratio(expected, cell) >= max(0.5, 1 - max_diffs / len(expected))``."""
    ratio = fuzz.ratio(expected, normalize_text(text)) / 100.0
    return ratio >= max(0.5, _threshold(expected, max_diffs))


def _check_table(rule: OlmoRule, content: str) -> RuleResult:
    """table: a cell fuzzy-matches ``cell`` and every given neighbour or heading matches."""
    grids = parse_tables(content, markdown=not rule.ignore_markdown_tables)
    if not grids:
        return RuleResult(False, "no tables found")
    target = normalize_text(rule.cell)
    wanted = {
        side: normalize_text(getattr(rule, side))
        for side in ("up", "down", "left", "right", "top_heading", "left_heading")
        if getattr(rule, side)
    }
    reasons: list[str] = []
    for grid in grids:
        for key, text in grid.cells.items():
            if not _matches(target, text, rule.max_diffs):
                continue
            missing = [
                side
                for side, expected in wanted.items()
                if not any(
                    _matches(expected, grid.cells[k], rule.max_diffs)
                    for k in _neighbours(grid, key, side)
                )
            ]
            if not missing:
                return RuleResult(True)
            reasons.append(f"cell {key} fails {', '.join(missing)}")
    if not reasons:
        return RuleResult(False, f"no cell matches {target[:40]!r}")
    return RuleResult(False, "; ".join(reasons[:3]))


def _neighbours(grid: Grid, key: tuple[int, int], side: str) -> list[tuple[int, int]]:
    if side == "top_heading":
        return grid.top_headings(key)
    if side == "left_heading":
        return grid.left_headings(key)
    return grid.around(key, side)


_MATH_DELIMITERS = (
    re.compile(r"\\\((.+?)\\\)", re.S),
    re.compile(r"\\\[(.+?)\\\]", re.S),
    re.compile(r"\$\$(.+?)\$\$", re.S),
    re.compile(r"\$(.+?)\$", re.S),
)
_LATEX_DROP = re.compile(
    r"\\(?:left|right|big|Big|bigg|Bigg|displaystyle|textstyle|limits|nolimits)(?![A-Za-z])"
    r"|\\[,;:! ]|\\q?quad(?![A-Za-z])|\s+"
)
_COMMAND_SPACE = re.compile(r"(\\[A-Za-z]+)\s+(?=[A-Za-z])")
_PRIME = re.compile(r"\^\{?\\prime\}?")
_LATEX_ALIASES: tuple[tuple[str, str], ...] = (
    (r"\dfrac", r"\frac"),
    (r"\tfrac", r"\frac"),
    (r"\boldsymbol", r"\mathbf"),
    (r"\bm", r"\mathbf"),
    (r"\operatorname", r"\mathrm"),
    (r"\textrm", r"\mathrm"),
    (r"\text", r"\mathrm"),
    (r"\le", r"\leq"),
    (r"\ge", r"\geq"),
    (r"\ne", r"\neq"),
)
_SINGLE_BRACED = re.compile(r"(?<=[_^])\{(\\[A-Za-z]+|[^{}\\])\}")


def extract_equations(content: str) -> list[str]:
    """Equations delimited by ``\\(..\\)``, ``\\[..\\]``, ``$$..$$`` or ``$..$``, in that order."""
    found: list[str] = []
    rest = content
    for pattern in _MATH_DELIMITERS:
        found.extend(m.strip() for m in pattern.findall(rest))
        rest = pattern.sub("", rest)
    return found


def normalize_latex(latex: str) -> str:
    """LaTeX with rendering-neutral differences removed: sizing, spacing, aliases, braces.

    ``\\left(`` and ``(``, ``\\dfrac`` and ``\\frac``, ``x^{2}`` and ``x^2``, ``\\le`` and
    ``\\leq``, ``^{\\prime}`` and ``'``, ``\\text`` and ``\\mathrm``, and whitespace
    (except the one space that ends a command before a letter) compare equal.
    """
    text = latex
    for alias, canonical in _LATEX_ALIASES:
        text = re.sub(re.escape(alias) + r"(?![A-Za-z])", canonical.replace("\\", "\\\\"), text)
    text = _PRIME.sub("'", text)
    text = _COMMAND_SPACE.sub("\\1\x00", text)
    text = _LATEX_DROP.sub("", text).replace("\x00", " ")
    previous = None
    while previous != text:
        previous = text
        text = _SINGLE_BRACED.sub(r"\1", text)
    return text


def _check_math(rule: OlmoRule, content: str) -> RuleResult:
    """math: an equation equals ``math`` exactly, or after :func:`normalize_latex` contains it."""
    equations = extract_equations(content)
    if any(eq == rule.math for eq in equations):
        return RuleResult(True)
    target = normalize_latex(rule.math)
    if any(target and target in normalize_latex(eq) for eq in equations):
        return RuleResult(True)
    return RuleResult(False, f"no equation matches {rule.math[:40]!r} ({len(equations)} found)")


_DISALLOWED = re.compile(
    "[\u4e00-\u9fff\u3040-\u309f\u30a0-\u30ff"
    "\U0001f600-\U0001f64f\U0001f300-\U0001f5ff\U0001f680-\U0001f6ff\U0001f1e0-\U0001f1ff]"
)


def tail_repeats(text: str, max_ngram: int = 5) -> list[int]:
    """For n = 1..max_ngram, how many times the last n characters repeat back to back at the end."""
    counts: list[int] = []
    for n in range(1, max_ngram + 1):
        if len(text) < n:
            counts.append(0)
            continue
        tail = text[-n:]
        count, end = 0, len(text)
        while end - n >= 0 and text[end - n : end] == tail:
            count += 1
            end -= n
        counts.append(count)
    return counts


def _check_baseline(rule: OlmoRule, content: str) -> RuleResult:
    """baseline: some alphanumerics, no runaway repetition, no CJK or emoji; or, with
    ``max_length``, at most that many alphanumerics (a blank page)."""
    counted = content
    if rule.max_length is not None and rule.max_length_skips_image_alt_tags:
        counted = re.sub(r"!\[.*?\]\(.*?\)", "", content)
    alnum = sum(1 for ch in counted if ch.isalnum())
    if rule.max_length is not None:
        if alnum > rule.max_length:
            return RuleResult(False, f"{alnum} characters on a page expected blank")
        return RuleResult(True)
    if alnum == 0:
        return RuleResult(False, "no alphanumeric characters")
    for n, count in enumerate(tail_repeats(content), start=1):
        if count > rule.max_repeats:
            return RuleResult(False, f"ends with {count} repeats of a {n}-gram")
    if rule.check_disallowed_characters:
        bad = _DISALLOWED.findall(content)
        if bad:
            return RuleResult(False, f"disallowed characters {''.join(bad[:10])!r}")
    return RuleResult(True)


_CHECKS = {
    "present": _check_text,
    "absent": _check_text,
    "order": _check_order,
    "table": _check_table,
    "math": _check_math,
    "baseline": _check_baseline,
}


def check_rule(rule: OlmoRule, content: str) -> RuleResult:
    """Judge one rule against one page's Markdown."""
    return _CHECKS[rule.type](rule, content)


def score_rule(rule: OlmoRule, candidates: Iterable[str]) -> float:
    """A rule's score: the mean pass over repeated candidates of its page (0 when none)."""
    results = [check_rule(rule, c).passed for c in candidates]
    return sum(results) / len(results) if results else 0.0


def baseline_rules(rules: Iterable[OlmoRule]) -> list[OlmoRule]:
    """The benchmark's automatic baseline rule for page 1 of each PDF that has none yet."""
    rules = list(rules)
    covered = {r.pdf for r in rules if r.type == "baseline"}
    added: list[OlmoRule] = []
    for pdf in dict.fromkeys(r.pdf for r in rules):
        if pdf not in covered:
            added.append(OlmoRule(pdf=pdf, page=1, id=f"{pdf}_baseline", type="baseline"))
    return added


def candidate_paths(candidate_dir: Path, pdf: str, page: int) -> list[Path]:
    """The candidate files of one page: ``<pdf stem>_pg<page>_repeat<N>.md``, any N."""
    rel = Path(pdf)
    folder = candidate_dir / rel.parent
    return sorted(folder.glob(f"{rel.stem}_pg{page}_repeat*.md"))
