"""The summary ``pagereader parse`` prints at the end of a run: a table where the terminal has
room for it, else one line per document, so that a path or a column name is never cut into
fragments (a narrow terminal, a log file, ``make demo`` piped through another program)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.table import Table

if TYPE_CHECKING:
    from pagereader.types import DocumentResult

Outcome = tuple[Path, "DocumentResult", float]

# the narrowest terminal on which the table keeps every path and column name whole
TABLE_WIDTH = 120
COLUMNS = (
    "file",
    "output",
    "status",
    "pages",
    "classes",
    "seconds",
    "errors",
    "warnings",
    "review",
)
_COLORS = {"ok": "green", "partial": "yellow", "failed": "red"}


def flagged_blocks(result: DocumentResult) -> int:
    """Blocks the verifier kept but flagged for a person to look at."""
    return sum(
        1
        for page in result.pages
        for block in page.blocks
        if block.verdict is not None and block.verdict.outcome == "review"
    )


def _figures(path: Path, result: DocumentResult, seconds: float, name: str) -> tuple[str, ...]:
    """One document's cells, in the order of COLUMNS, as rich markup."""
    classes: dict[str, int] = {}
    for page in result.pages:
        if page.decision:
            classes[page.decision.page_class] = classes.get(page.decision.page_class, 0) + 1
    color = _COLORS[result.status]
    return (
        escape(str(path)),
        escape(name + "/"),
        f"[{color}]{result.status}[/{color}]",
        str(len(result.pages)),
        ",".join(f"{k}:{v}" for k, v in sorted(classes.items())) or "-",
        f"{seconds:.1f}",
        str(len(result.errors)),
        str(len(result.warnings)),
        str(flagged_blocks(result)),
    )


def summary_table(results: list[Outcome], names: dict[Path, str]) -> Table:
    """The summary as a table, one row per document."""
    table = Table(title="pagereader parse")
    for column in COLUMNS:
        table.add_column(column, overflow="fold")
    for path, result, seconds in results:
        table.add_row(*_figures(path, result, seconds, names[path]))
    return table


def summary_lines(results: list[Outcome], names: dict[Path, str]) -> list[str]:
    """The summary as one line per document: its path, then each figure after its name."""
    lines = []
    for path, result, seconds in results:
        cells = _figures(path, result, seconds, names[path])
        lines.append(
            "  ".join(
                [cells[0], *(f"{k} {v}" for k, v in zip(COLUMNS[1:], cells[1:], strict=True))]
            )
        )
    return lines


def print_summary(target: Console, results: list[Outcome], names: dict[Path, str]) -> None:
    """The table on a terminal at least TABLE_WIDTH wide, else the lines, each printed whole
    (a terminal narrower than a line wraps it between words, never inside a path)."""
    if target.is_terminal and target.width >= TABLE_WIDTH:
        target.print(summary_table(results, names))
        return
    target.print("pagereader parse", highlight=False)
    for line in summary_lines(results, names):
        target.print(line, highlight=False, soft_wrap=not target.is_terminal, overflow="ignore")
