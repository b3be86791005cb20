"""A PPTX deck read from its own XML: chart data, reading order, logos, pictures, slide facts.

The deck is built by code (tests/fixtures/pptx_decks.py) with the facts the tests check, and
rendered by LibreOffice for the page images and the boxes' units."""

from __future__ import annotations

import json
import shutil

import pytest

from pagereader.pipeline import parse
from pagereader.render.json import document_json_text
from pagereader.text.tables import html_to_table, read_tables, slot_rows
from pagereader.types import DocumentResult, PageResult

from fixtures.pptx_decks import (
    CATEGORIES,
    CHART_TITLE,
    HIDDEN_TITLE,
    LEFT_BOX,
    LOGO_ALT,
    MERGED_HEADER,
    NOTES,
    PICTURE_ALT,
    RIGHT_BOX,
    SERIES,
    NativeDeck,
    build_native_deck,
)

pytestmark = pytest.mark.skipif(
    shutil.which("soffice") is None and shutil.which("libreoffice") is None,
    reason="PPTX needs LibreOffice for its page images",
)


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> tuple[NativeDeck, DocumentResult]:
    built = build_native_deck(tmp_path_factory.mktemp("native") / "native.pptx")
    return built, parse(built.path)


def _page(result: DocumentResult, number: int) -> PageResult:
    return next(p for p in result.pages if p.index == number)


def test_every_slide_is_a_native_page_read_by_the_pptx_engine(
    deck: tuple[NativeDeck, DocumentResult],
) -> None:
    built, result = deck
    assert result.status == "ok"
    assert result.page_count == built.hidden  # hidden slides are pages too
    for page in result.pages:
        assert page.decision is not None and page.decision.page_class == "native"
        assert {b.engine for b in page.blocks} == {"pptx"}


def test_chart_gives_its_exact_numbers_as_a_table(
    deck: tuple[NativeDeck, DocumentResult],
) -> None:
    built, result = deck
    page = _page(result, built.chart)
    tables = [b for b in page.blocks if b.block.kind == "table"]
    assert len(tables) == 1 and tables[0].html
    rows = slot_rows(html_to_table(tables[0].html))
    assert rows[0] == ["", *SERIES]
    expected = [
        [category, *(f"{values[i]:g}" for values in SERIES.values())]
        for i, category in enumerate(CATEGORIES)
    ]
    assert rows[1:] == expected
    assert read_tables(page.markdown)  # the Markdown holds it as a table too
    assert CHART_TITLE in page.markdown


def test_side_by_side_boxes_are_read_one_after_the_other(
    deck: tuple[NativeDeck, DocumentResult],
) -> None:
    built, result = deck
    markdown = _page(result, built.columns).markdown
    positions = [markdown.index(line) for line in (*LEFT_BOX, *RIGHT_BOX)]
    assert positions == sorted(positions), markdown
    assert markdown.index("Two columns") < positions[0]  # the title first


def test_a_logo_on_every_slide_is_in_no_slides_prose(
    deck: tuple[NativeDeck, DocumentResult],
) -> None:
    built, result = deck
    assert LOGO_ALT not in result.markdown
    assert result.deck is not None
    logos = result.deck.recurring_pictures
    assert len(logos) == 1
    assert logos[0].slides == tuple(range(1, built.hidden + 1))
    assert logos[0].alt_text == LOGO_ALT
    for page in result.pages:  # kept on each slide as furniture, for the overlays
        assert any(b.block.kind in ("header", "footer") for b in page.blocks)


def test_picture_only_slides_are_not_empty(deck: tuple[NativeDeck, DocumentResult]) -> None:
    built, result = deck
    page = _page(result, built.picture)
    # the alt text describes the picture: inside the figure's marker, not printed as slide text
    assert f"<!-- figure: {PICTURE_ALT} -->" in page.markdown
    assert [r.text for r in page.blocks if r.block.kind == "figure"] == [PICTURE_ALT]
    assert "<!-- figure -->" in _page(result, built.bare_picture).markdown


def test_hidden_slide_number_and_notes_are_in_the_json(
    deck: tuple[NativeDeck, DocumentResult],
) -> None:
    built, result = deck
    data = json.loads(document_json_text(result))
    slides = [page["slide"] for page in data["pages"]]
    assert [s["number"] for s in slides] == list(range(1, built.hidden + 1))
    assert [s["hidden"] for s in slides] == [n == built.hidden for n in range(1, built.hidden + 1)]
    assert data["deck"]["hidden_slides"] == [built.hidden]
    assert data["pages"][built.columns - 1]["notes"] == NOTES
    assert HIDDEN_TITLE in _page(result, built.hidden).markdown


def test_table_keeps_its_merged_cells(deck: tuple[NativeDeck, DocumentResult]) -> None:
    built, result = deck
    page = _page(result, built.table)
    table_block = next(b for b in page.blocks if b.block.kind == "table")
    assert table_block.html is not None
    table = html_to_table(table_block.html)
    spans = {(c.text, c.row_span, c.col_span) for c in table.cells}
    assert (MERGED_HEADER, 1, 2) in spans
    assert ("Office", 2, 1) in spans
    assert slot_rows(table)[2] == ["Taipei", "12,400", "13,900"]


def test_boxes_are_in_page_units_where_the_render_draws_them(
    deck: tuple[NativeDeck, DocumentResult],
) -> None:
    built, result = deck
    page = _page(result, built.picture)
    assert (page.width, page.height) == (720.0, 540.0)  # 10 x 7.5 in, in points
    figure = next(b for b in page.blocks if b.block.kind == "figure")
    assert [round(v) for v in figure.block.bbox] == [144, 108, 576, 396]  # 2, 1.5, 6 x 4 in


def test_the_slide_number_is_printed_where_the_slide_shows_it() -> None:
    """A real deck's slide-number placeholders: each slide's number is in its prose (it was a
    footer block, kept out of the Markdown, so the number on the slide was lost)."""
    from pagereader.render.markdown import block_markdown
    from pagereader.sources.pptx_native import read_deck

    from shared_data import shared

    deck = read_deck(shared("eval", "real_slides", "poi-alterman-security.pptx"))
    assert deck is not None
    for number in (2, 3, 4, 5):
        slide = deck.native(number, 23, 720.0, 540.0)
        assert slide is not None
        printed = [block_markdown(r) for r in slide.results]
        assert str(number) in printed, (number, printed)
        assert slide.info is not None and slide.info.number == number
