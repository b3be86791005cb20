"""``pagereader export-docling`` on real documents, read back by docling-core itself: a Korean
statute (../shared/eval/real_legal) and the sample deck. The DoclingDocument validates, its
pages have pagereader's sizes, its section headers are pagereader's headings at their levels
(the reference's title and chapter among them, the chapter one level below the title), every
item's provenance is its block's page and box, the deck's table keeps its spanning header, and
docling's HierarchicalChunker puts a phrase of the reference under the right headings and page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from docling_core.transforms.chunker.hierarchical_chunker import HierarchicalChunker
from docling_core.types.doc import DocItem, DoclingDocument, SectionHeaderItem, TableItem
from typer.testing import CliRunner

from pagereader.cli.main import app
from pagereader.pipeline import parse
from pagereader.render.json import document_json_text
from pagereader.text.chars import normalize as fold
from pagereader.types import DocumentResult

from shared_data import shared

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _export(result: DocumentResult, tmp_path: Path) -> DoclingDocument:
    """document.json written as parse writes it, exported by the command, loaded by docling."""
    source = tmp_path / "document.json"
    source.write_text(document_json_text(result), encoding="utf-8")
    target = tmp_path / "out" / "docling.json"
    done = CliRunner().invoke(app, ["export-docling", str(source), "-o", str(target)])
    assert done.exit_code == 0, done.output
    return DoclingDocument.model_validate_json(target.read_text(encoding="utf-8"))


def _headings(doc: DoclingDocument) -> list[tuple[str, int, int]]:
    return [
        (item.text, item.level, item.prov[0].page_no)
        for item, _ in doc.iterate_items()
        if isinstance(item, SectionHeaderItem)
    ]


def _check_provenance(result: DocumentResult, doc: DoclingDocument) -> None:
    """Every exported item sits on its block's page, in its block's box."""
    boxes = {
        (page.index, tuple(round(v, 2) for v in b.block.bbox))
        for page in result.pages
        for b in page.blocks
    }
    items = [item for item, _ in doc.iterate_items(with_groups=False)]
    assert items
    for item in items:
        assert isinstance(item, DocItem)
        for prov in item.prov:
            box = (prov.bbox.l, prov.bbox.t, prov.bbox.r, prov.bbox.b)
            assert (prov.page_no, tuple(round(v, 2) for v in box)) in boxes, item.self_ref
    sizes = {page.index: (page.width, page.height) for page in result.pages}
    assert {n: (p.size.width, p.size.height) for n, p in doc.pages.items()} == sizes


def _chunk_of(doc: DoclingDocument, phrase: str) -> tuple[list[str], set[int]]:
    for chunk in HierarchicalChunker().chunk(dl_doc=doc):
        if fold(phrase) in fold(chunk.text):
            meta = chunk.meta
            pages = {p.page_no for item in meta.doc_items for p in item.prov}  # type: ignore[attr-defined]
            return list(meta.headings or []), pages  # type: ignore[attr-defined]
    raise AssertionError(f"no chunk holds {phrase!r}")


@pytest.mark.slow
def test_a_korean_statute_exported_and_chunked(tmp_path: Path) -> None:
    stem = "constitution_1987"
    result = parse(shared("eval", "real_legal", f"{stem}.pdf"))
    doc = _export(result, tmp_path)
    reference = shared("eval", "real_legal", f"{stem}.p1.ref.txt").read_text(encoding="utf-8")
    lines = [line.strip() for line in reference.splitlines() if line.strip()]
    title, chapter = lines[0], next(line for line in lines if line.startswith("제2장"))

    headings = _headings(doc)
    ours = [
        (" ".join(b.text.split()), b.level, page.index)
        for page in result.pages
        for b in page.blocks
        if b.level is not None
    ]
    assert headings == ours
    levels = {fold(text): level for text, level, _ in headings}
    assert levels[fold(title)] + 1 == levels[fold(chapter)]
    _check_provenance(result, doc)

    sentence = lines[lines.index("제10조") + 1]  # the reference's first article's first line
    found, pages = _chunk_of(doc, sentence[:20])
    assert [fold(h) for h in found] == [fold(title), fold(chapter)]
    assert pages == {1}


def test_the_deck_exported_with_its_slide_titles_and_table(tmp_path: Path) -> None:
    result = parse(EXAMPLES / "deck.pdf")
    doc = _export(result, tmp_path)
    titles = [
        (EXAMPLES / f"deck.p{n}.txt").read_text(encoding="utf-8").splitlines()[0]
        for n in (1, 2, 3, 4)
    ]
    assert _headings(doc) == [(title, 1, n) for n, title in enumerate(titles, start=1)]
    _check_provenance(result, doc)

    table = next(item for item, _ in doc.iterate_items() if isinstance(item, TableItem))
    grid = table.data.grid
    assert [cell.text for cell in grid[0][1:4]] == ["Pages processed"] * 3  # one cell, 3 wide
    assert grid[0][1].col_span == 3 and grid[0][0].row_span == 2
    assert table.prov[0].page_no == 4

    second = (EXAMPLES / "deck.p2.txt").read_text(encoding="utf-8").splitlines()[1]
    assert _chunk_of(doc, second) == ([titles[1]], {2})
    saved = json.loads(table.model_dump_json())
    assert saved["prov"][0]["bbox"]["coord_origin"] == "TOPLEFT"
