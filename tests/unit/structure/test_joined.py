"""Pages joined: which breaks join a paragraph or a table, and which do not."""

from __future__ import annotations

from pagereader.render.markdown import document_markdown, page_markdown
from pagereader.structure.joined import document_pieces
from pagereader.types import Block, BlockKind, BlockResult, DocumentResult, PageResult

BBox = tuple[float, float, float, float]


def _block(
    order: int, kind: BlockKind, text: str, bbox: BBox, html: str | None = None
) -> BlockResult:
    return BlockResult(block=Block(kind=kind, bbox=bbox, order=order), text=text, html=html)


def _document(*pages: list[BlockResult]) -> DocumentResult:
    results = [
        PageResult(index=i, width=600, height=800, blocks=tuple(b), markdown=page_markdown(b))
        for i, b in enumerate(pages, start=1)
    ]
    return DocumentResult(
        schema_version="test",
        source="test.pdf",
        status="ok",
        pages=tuple(results),
        markdown=document_markdown(results),
    )


HEADER = (50.0, 20.0, 550.0, 30.0)
TOP = (50.0, 60.0, 550.0, 200.0)
BOTTOM = (50.0, 600.0, 550.0, 760.0)
FOOTER = (280.0, 780.0, 320.0, 790.0)


def _texts(result: DocumentResult) -> list[str]:
    return [piece.text for piece in document_pieces(result)]


def test_a_sentence_cut_by_the_page_is_joined_and_furniture_is_left_out() -> None:
    result = _document(
        [
            _block(0, "header", "Annual Report", HEADER),
            _block(1, "text", "The board will review the", BOTTOM),
            _block(2, "footer", "Page 1", FOOTER),
        ],
        [_block(0, "header", "Annual Report", HEADER), _block(1, "text", "accounts in May.", TOP)],
    )
    (piece,) = document_pieces(result)
    assert piece.text == "The board will review the accounts in May."
    assert piece.blocks == [(1, 1), (2, 1)] and piece.pages == [1, 2]
    assert result.markdown[piece.md_span[0] : piece.md_span[1]].startswith("The board")
    assert result.markdown[piece.md_span[0] : piece.md_span[1]].endswith("in May.")


def test_a_hyphenated_word_and_chinese_join_as_lines_do() -> None:
    english = _document(
        [_block(0, "text", "payments are made in install-", BOTTOM)],
        [_block(0, "text", "ments of equal size.", TOP)],
    )
    assert _texts(english) == ["payments are made in installments of equal size."]
    chinese = _document(
        [_block(0, "text", "雇主應於事後補給勞工以適當", BOTTOM)],
        [_block(0, "text", "之休息。", TOP)],
    )
    assert _texts(chinese) == ["雇主應於事後補給勞工以適當之休息。"]


def test_what_is_not_one_paragraph_stays_apart() -> None:
    ended = _document(
        [_block(0, "text", "The year ended well.", BOTTOM)],
        [_block(0, "text", "and then more", TOP)],
    )
    capital = _document(
        [_block(0, "text", "The figures for the region", BOTTOM)],
        [_block(0, "text", "Summary of results", TOP)],
    )
    item = _document(
        [_block(0, "text", "雇主應遵守下列規定", BOTTOM)],
        [_block(0, "text", "一、不得延長工時。", TOP)],
    )
    skipped_page = _document(
        [_block(0, "text", "the board will review the", BOTTOM)],
        [],
        [_block(0, "text", "accounts in May.", TOP)],
    )
    for result in (ended, capital, item, skipped_page):
        assert len(_texts(result)) == 2


def _table(rows: list[list[str]]) -> str:
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table>{body}</table>"


def test_a_table_runs_on_under_its_repeated_header() -> None:
    head = ["Region", "Units"]
    first = _table([head, ["North", "12"], ["South", "7"]])
    second = _table([head, ["East", "3"]])
    result = _document(
        [_block(0, "table", first, BOTTOM, first)], [_block(0, "table", second, TOP, second)]
    )
    (piece,) = document_pieces(result)
    assert piece.table is not None and piece.table.rows == 4
    assert piece.text == _table([head, ["North", "12"], ["South", "7"], ["East", "3"]])
    assert piece.pages == [1, 2]


def test_tables_that_differ_stay_two() -> None:
    three = _table([["a", "b", "c"], ["1", "2", "3"]])
    two = _table([["a", "b"], ["1", "2"]])
    narrow = (50.0, 60.0, 250.0, 200.0)
    for second, box in ((three, TOP), (two, narrow)):
        result = _document(
            [_block(0, "table", two, BOTTOM, two)], [_block(0, "table", second, box, second)]
        )
        assert len(document_pieces(result)) == 2
