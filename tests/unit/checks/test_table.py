from __future__ import annotations

from typing import Any

from pagereader.checks import Possible, Subject
from pagereader.checks.base import ReferenceSource
from pagereader.checks.table import check_table, html_problems
from pagereader.text.tables import html_to_table, slot_rows

# The quarterly table of the sample deck, as its text layer reads it.
REFERENCE = "Region Q1 Q2 Q3\nNorth 120 135 150\nSouth 98 101 117"
CLEAN = (
    "<table><tr><th>Region</th><th>Q1</th><th>Q2</th><th>Q3</th></tr>"
    "<tr><td>North</td><td>120</td><td>135</td><td>150</td></tr>"
    "<tr><td>South</td><td>98</td><td>101</td><td>117</td></tr></table>"
)
# The same table with a column the page does not have (dots.ocr #99 style).
EXTRA_COLUMN = (
    "<table><tr><th>Region</th><th>Q1</th><th>Q2</th><th>Q3</th><th>Q4</th></tr>"
    "<tr><td>North</td><td>120</td><td>135</td><td>150</td><td>162</td></tr>"
    "<tr><td>South</td><td>98</td><td>101</td><td>117</td><td>124</td></tr></table>"
)


def _table(html: str, source: ReferenceSource | None = "textlayer") -> Subject:
    return Subject(
        text="",
        html=html,
        kind="table",
        engine="vlm",
        reference=REFERENCE if source else None,
        reference_source=source,
    )


def test_extra_column_is_invented_and_escalated(judge: Any) -> None:
    # fallback is never possible for a table: plain reference text would lose its structure
    findings, action = judge(_table(EXTRA_COLUMN), Possible(can_escalate=True))
    assert {f.check: f.message for f in findings} == {
        "critical": "critical tokens differ from the textlayer: +4, +162, +124",
        "table": "3 cell(s) have text the textlayer does not: 'Q4', '162', '124'",
    }
    assert action == "escalate"


def test_extra_column_with_retry_left_is_retried(judge: Any) -> None:
    assert judge(_table(EXTRA_COLUMN), Possible(can_retry=True, can_escalate=True))[1] == "retry"


def test_clean_table_is_accepted(judge: Any) -> None:
    findings, action = judge(_table(CLEAN), Possible(can_retry=True, can_escalate=True))
    assert findings == []
    assert action == "accept"


def test_ragged_row_and_spans() -> None:
    ragged = CLEAN.replace("<td>98</td>", "<td>98</td><td>99</td>")
    findings = check_table(_table(ragged, None))
    assert findings[0].message == "rows disagree on width: row 3 has 5 cells where the table has 4"
    spanned = (
        "<table><tr><th rowspan='2'>Region</th><th colspan='2'>H1</th></tr>"
        "<tr><th>Q1</th><th>Q2</th></tr><tr><td>North</td><td>120</td><td>135</td></tr></table>"
    )
    assert slot_rows(html_to_table(spanned))[1] == ["", "Q1", "Q2"]
    assert check_table(_table(spanned, None)) == []


def test_cut_off_html_and_crossed_tags() -> None:
    cut = CLEAN[: CLEAN.index("<td>101")]
    findings = check_table(_table(cut, None))
    assert findings[0].message.startswith("table HTML is malformed: <table> is never closed")
    assert html_problems("<table><tr><td>a</table></tr>") == [
        "<tr> is closed by </table>",
        "</tr> closes nothing",
    ]


def test_markdown_table_rows_are_counted() -> None:
    md = "| Region | Q1 |\n|---|---|\n| North | 120 | 7 |"
    subject = Subject(text=md, kind="table")
    assert check_table(subject)[0].message.endswith("row 2 has 3 cells where the table has 2")


TWO_TABLES = (
    "| Region | Q1 |\n|---|---|\n| North | 120 |\n| South | 98 |\n\n"
    "x | y | z\n\n"
    "| Item | Qty | Price |\n|---|---|---|\n| Pen | 2 | 1.50 |"
)


def test_prose_with_pipes_between_two_tables_is_not_a_row(judge: Any) -> None:
    # a prose line with pipes between two correct tables: two clean tables, nothing to redo
    subject = Subject(text=TWO_TABLES, kind="table", engine="vlm")
    assert check_table(subject) == []
    findings, action = judge(subject, Possible(can_retry=True, can_escalate=True))
    assert (findings, action) == ([], "accept")


def test_each_table_of_an_answer_is_judged_on_its_own() -> None:
    second_ragged = TWO_TABLES + "\n| Ink | 5 |"
    findings = check_table(Subject(text=second_ragged, kind="table"))
    assert [f.message for f in findings] == [
        "table 2: rows disagree on width: row 3 has 2 cells where the table has 3"
    ]
