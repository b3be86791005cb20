"""Tables: the HTML must parse, rows must agree on their width, and no cell may be invented.

VLMs return tables that render fine and are wrong: a row with a cell too many, a whole extra
column of plausible numbers, a table cut off before ``</table>``. Widths count the grid slots a
row occupies, so ``colspan`` and ``rowspan`` are honoured; every table of the answer is read
(tables.py) and judged on its own.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from pagereader.checks.base import Subject
from pagereader.text.chars import normalize
from pagereader.text.tables import read_html_tables, read_markdown_tables, row_widths
from pagereader.types import Finding, Table

_STRUCTURE = ("table", "thead", "tbody", "tfoot", "tr", "td", "th")
_HAS_WORD = re.compile(r"[^\W_]")
_FENCE = re.compile(r"^\s*```[a-z]*\s*$", re.M | re.I)
_HTML_START = re.compile(r"\s*<(?:table|thead|tbody|tr)\b", re.I)


class _Balance(HTMLParser):
    """Tracks the table tags that are opened and closed, to find cut-off or crossed tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _STRUCTURE:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag not in _STRUCTURE:
            return
        if tag not in self.stack:
            self.problems.append(f"</{tag}> closes nothing")
            return
        while self.stack and self.stack[-1] != tag:
            open_tag = self.stack.pop()
            if open_tag in ("table", "tr"):
                self.problems.append(f"<{open_tag}> is closed by </{tag}>")
        self.stack.pop()


def html_problems(markup: str) -> list[str]:
    """Structural faults of table markup: unclosed tables or rows, stray or crossed tags."""
    parser = _Balance()
    parser.feed(markup)
    parser.close()
    problems = list(parser.problems)
    problems.extend(f"<{tag}> is never closed" for tag in parser.stack if tag in ("table", "tr"))
    return problems


def ragged_rows(table: Table) -> list[str]:
    """Rows whose width (grid slots, spans included) differs from the most common width."""
    widths = row_widths(table)
    if not widths:
        return []
    usual = max(set(widths), key=widths.count)
    return [
        f"row {i + 1} has {w} cells where the table has {usual}"
        for i, w in enumerate(widths)
        if w != usual
    ]


def invented_cells(tables: list[Table], reference: str, min_ratio: float) -> list[str]:
    """Cells with words whose text the reference does not contain (exactly or nearly)."""
    ref = normalize(reference, markdown=False)
    out: list[str] = []
    for cell in (cell for table in tables for cell in table.cells):
        text = normalize(cell.text, markdown=False)
        if not text or not _HAS_WORD.search(text) or text in ref:
            continue
        from rapidfuzz import fuzz  # 0.02 s to import; most cells are found exactly

        if fuzz.partial_ratio(text, ref) < min_ratio:
            out.append(cell.text.strip())
    return out


def check_table(subject: Subject, min_ratio: float = 80.0) -> list[Finding]:
    """Errors for broken markup, ragged rows, and cells the reference has no text for."""
    if subject.kind != "table":
        return []
    markup = subject.html if subject.html and "<t" in subject.html else subject.text
    markup = _FENCE.sub("", markup)
    findings: list[Finding] = []
    if _HTML_START.match(markup):
        problems = html_problems(markup)
        if problems:
            findings.append(
                Finding(
                    check="table",
                    severity="error",
                    message="table HTML is malformed: " + "; ".join(problems[:3]),
                )
            )
        tables = read_html_tables(markup)
    else:
        tables = read_markdown_tables(markup)
    for number, table in enumerate(tables, start=1):
        ragged = ragged_rows(table)
        if ragged:
            which = f"table {number}: " if len(tables) > 1 else ""
            findings.append(
                Finding(
                    check="table",
                    severity="error",
                    message=f"{which}rows disagree on width: " + "; ".join(ragged[:3]),
                )
            )
    if subject.reference is not None and normalize(subject.reference) and tables:
        ratio = min_ratio if subject.reference_source == "textlayer" else min_ratio - 15
        extra = invented_cells(tables, subject.reference, ratio)
        if extra:
            shown = ", ".join(repr(c[:20]) for c in extra[:5])
            findings.append(
                Finding(
                    check="table",
                    severity="error",
                    message=f"{len(extra)} cell(s) have text the {subject.reference_source} does "
                    f"not: {shown}",
                )
            )
    return findings
