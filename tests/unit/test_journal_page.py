"""A journal page read as a person reads it: the ruled table's header words whole and its
stacked records one row each, the bold numbered line a heading, and the running title and
page number on the page's first row out of the prose; made by code, then docling's own
sample page with the same traits."""

from __future__ import annotations

import re

import pytest

from pagereader import parse
from pagereader.types import DocumentResult

from fixtures.journal_page import GROUPS, HEADING, RUNNING, write_journal_page
from shared_data import shared


def _cells(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[dh][^>]*>.*?</t[dh]>", html)]


def _table_html(result: DocumentResult) -> str:
    tables = [b.html for p in result.pages for b in p.blocks if b.block.kind == "table"]
    assert len(tables) == 1
    return tables[0] or ""


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> DocumentResult:
    return parse(write_journal_page(tmp_path_factory.mktemp("journal")).path)


def test_header_words_stay_whole(journal: DocumentResult) -> None:
    cells = _cells(_table_html(journal))
    assert "TEDs" in cells
    assert {"simple", "complex", "all", "mAP"} <= set(cells)
    assert not {"T", "s", "simpl", "e", "al", "l"} & set(cells)


def test_stacked_records_are_rows(journal: DocumentResult) -> None:
    html = _table_html(journal)
    rows = [_cells(row) for row in re.findall(r"<tr>(.*?)</tr>", html)]
    records = [r for g in GROUPS for r in g[1]]
    # each record is a row of its own, behind its group's shared setting when it opens the group
    for record in records:
        assert any(row[-len(record) :] == list(record) for row in rows), record
    assert html.count('rowspan="2">6<') == 1
    assert not any(" " in cell for cell in _cells(html) if cell[:1].isdigit())


def test_numbered_bold_line_is_a_heading(journal: DocumentResult) -> None:
    lines = journal.markdown.splitlines()
    assert any(line.lstrip("#").strip() == HEADING and line.startswith("#") for line in lines)


def test_running_title_and_page_number_leave_the_prose(journal: DocumentResult) -> None:
    lines = [line.strip() for line in journal.markdown.splitlines()]
    assert RUNNING not in journal.markdown
    assert "9" not in lines
    kinds = {b.text.strip(): b.block.kind for p in journal.pages for b in p.blocks}
    assert kinds[RUNNING] == "header" and kinds["9"] == "header"


def test_docling_sample_page() -> None:
    """docling's 2305.03393v1-pg9: the same table, heading and running row, nobody's fixture."""
    result = parse(shared("eval", "docling_testdata", "pdf", "2305.03393v1-pg9.pdf"))
    cells = _cells(_table_html(result))
    assert {"TEDs", "simple", "complex", "all", "OTSL", "HTML", "0.965", "0.969"} <= set(cells)
    assert "0.965 0.969" not in cells
    lines = [line.strip() for line in result.markdown.splitlines()]
    assert (
        "# 5.1 Hyper Parameter Optimization" in lines
        or "## 5.1 Hyper Parameter Optimization" in lines
    )
    assert "9" not in lines
    assert "Optimized Table Tokenization for Table Structure Recognition" not in result.markdown
