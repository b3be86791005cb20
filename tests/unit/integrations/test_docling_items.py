"""The DoclingDocument export block by block (docling-core's real types): a list block becomes
a list group of its items (a wrapped line stays in its item), a running header is furniture, a
table keeps its spans, a figure holds the text read in it, a document.json from before heading
levels gets them on export; and the command's errors name the file in one line."""

from __future__ import annotations

from pathlib import Path

from docling_core.types.doc import (
    ContentLayer,
    DocItemLabel,
    DoclingDocument,
    ListItem,
    PictureItem,
    SectionHeaderItem,
    TableItem,
    TextItem,
)
from typer.testing import CliRunner

from pagereader.cli.main import app
from pagereader.integrations.docling_export import to_docling
from pagereader.types import Block, BlockKind, BlockResult, DocumentResult, PageResult, TextLine


def _block(order: int, kind: BlockKind, text: str, html: str | None = None) -> BlockResult:
    box = (10.0, 20.0 * order, 300.0, 20.0 * order + 15)
    lines = tuple(TextLine(text=t, bbox=box, font_size=10) for t in text.splitlines())
    block = Block(kind=kind, bbox=box, order=order, lines=lines)
    return BlockResult(block=block, text=text, html=html)


TABLE = (
    '<table><tr><th rowspan="2">Office</th><th colspan="2">Pages</th></tr>'
    "<tr><th>Q1</th><th>Q2</th></tr><tr><td>Seoul</td><td>9</td><td>11</td></tr></table>"
)


def _document() -> DocumentResult:
    page = PageResult(
        index=1,
        width=595.0,
        height=842.0,
        blocks=(
            _block(0, "header", "Annual report"),
            _block(1, "title", "Results"),
            _block(2, "list", "• first item\nwrapped on\n• second item"),
            _block(3, "table", TABLE, TABLE),
            _block(4, "figure", "Q3 up 8%"),
        ),
    )
    return DocumentResult(schema_version="2.0", source="r.pdf", status="ok", pages=(page,))


def test_blocks_become_docling_items() -> None:
    doc = to_docling(_document())
    items = [item for item, _ in doc.iterate_items(included_content_layers=set(ContentLayer))]
    header = next(i for i in items if isinstance(i, TextItem) and i.text == "Annual report")
    assert header.label == DocItemLabel.PAGE_HEADER
    assert header.content_layer == ContentLayer.FURNITURE
    heading = next(i for i in items if isinstance(i, SectionHeaderItem))
    assert (heading.text, heading.level) == ("Results", 1)  # levels computed on export
    assert heading.prov[0].charspan == (0, 7)
    listed = [i.text for i in items if isinstance(i, ListItem)]
    assert listed == ["first item wrapped on", "second item"]
    table = next(i for i in items if isinstance(i, TableItem))
    assert (table.data.num_rows, table.data.num_cols) == (3, 3)
    spans = {c.text: (c.row_span, c.col_span, c.column_header) for c in table.data.table_cells}
    assert spans["Office"] == (2, 1, True) and spans["Pages"] == (1, 2, True)
    assert spans["Seoul"] == (1, 1, False)
    picture = next(i for i in items if isinstance(i, PictureItem))
    assert [child.resolve(doc).text for child in picture.children] == ["Q3 up 8%"]
    again = DoclingDocument.model_validate_json(doc.model_dump_json())
    assert again.export_to_markdown() == doc.export_to_markdown()


def test_the_command_names_a_file_it_cannot_read(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = tmp_path / "none.json"
    done = runner.invoke(app, ["export-docling", str(missing), "-o", str(tmp_path / "o.json")])
    assert done.exit_code == 1 and str(missing) in done.output
    wrong = tmp_path / "other.json"
    wrong.write_text('{"pages": 3}', encoding="utf-8")
    done = runner.invoke(app, ["export-docling", str(wrong), "-o", str(tmp_path / "o.json")])
    assert done.exit_code == 1
    assert "not a pagereader document.json" in done.output and str(wrong) in done.output
    assert not (tmp_path / "o.json").exists()
