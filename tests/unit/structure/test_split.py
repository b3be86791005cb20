"""Cutting text and tables that are too long for one chunk."""

from __future__ import annotations

import pytest

from pagereader.structure.split import clauses, hard_cut, sentences, table_parts
from pagereader.structure.tokens import token_counter
from pagereader.text.tables import html_to_table, read_tables, table_to_html, without_unused_columns
from pagereader.types import Table, TableCell


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def _texts(text: str, spans: list[tuple[int, int]]) -> list[str]:
    return [text[a:b] for a, b in spans]


def test_sentences_end_at_stops_but_not_after_article_abbreviations() -> None:
    text = "Under Art. 5 the buyer pays. See No. 3 below!  Then (it ends.) Done"
    assert _texts(text, sentences(text)) == [
        "Under Art. 5 the buyer pays.",
        "See No. 3 below!",
        "Then (it ends.)",
        "Done",
    ]
    chinese = "勞工每日正常工作時間不得超過八小時。雇主應置備出勤紀錄！是否違法？否"
    assert _texts(chinese, sentences(chinese)) == [
        "勞工每日正常工作時間不得超過八小時。",
        "雇主應置備出勤紀錄！",
        "是否違法？",
        "否",
    ]
    korean = "모든 국민은 신체의 자유를 가진다. 누구든지 체포되지 아니한다."
    assert len(sentences(korean)) == 2


def test_clauses_cut_after_commas_and_semicolons() -> None:
    text = "前項雇主延長工作時間，一日不得超過十二小時；延長之工作時間，一個月不得超過四十六小時"
    parts = _texts(text, clauses(text, (0, len(text))))
    assert parts[0] == "前項雇主延長工作時間，" and parts[1] == "一日不得超過十二小時；"
    assert "".join(parts) == text


def test_a_hard_cut_fits_and_never_splits_an_article_number() -> None:
    count = token_counter("o200k_base")
    text = "依第三十二條之一規定" * 12 + "依第三十二條第二項規定辦理"
    spans = hard_cut(text, (0, len(text)), 12, count)
    pieces = _texts(text, spans)
    assert "".join(pieces) == text
    assert all(count(piece) <= 12 for piece in pieces)
    assert all(not piece.startswith(("三十二條", "十二條", "二條", "條")) for piece in pieces)
    assert all(not piece.endswith(("第", "第三", "第三十", "第三十二")) for piece in pieces)
    english = " ".join(["payment"] * 60)
    words = _texts(english, hard_cut(english, (0, len(english)), 10, count))
    assert all(piece.split() and set(piece.split()) == {"payment"} for piece in words)
    assert sum(len(piece.split()) for piece in words) == 60


def test_a_long_table_is_cut_at_rows_under_its_header() -> None:
    count = token_counter("o200k_base")
    rows = [("Region", "Units")] + [(f"Region {i}", str(1000 + i)) for i in range(40)]
    cells = tuple(
        TableCell(row=r, col=c, text=text)
        for r, row in enumerate(rows)
        for c, text in enumerate(row)
    )
    table = Table(rows=len(rows), cols=2, cells=cells, header_rows=1)
    for html in (False, True):
        parts = table_parts(table, html, 60, count)
        assert len(parts) > 2
        got: list[list[str]] = []
        for part in parts:
            (read,) = read_tables(part)
            texts = [[c.text for c in read.cells if c.row == r] for r in range(read.rows)]
            assert texts[0] == ["Region", "Units"]
            got.extend(texts[1:])
            assert count(part) <= 60
        assert got == [list(row) for row in rows[1:]]


def test_unused_grid_columns_are_folded() -> None:
    html = (
        '<table><tr><th colspan="4">Region</th><th colspan="3">Units</th></tr>'
        '<tr><td colspan="4">North</td><td colspan="3">12</td></tr></table>'
    )
    table = without_unused_columns(html_to_table(html))
    assert table.cols == 2
    assert table_to_html(table) == (
        "<table><tr><th>Region</th><th>Units</th></tr><tr><td>North</td><td>12</td></tr></table>"
    )
