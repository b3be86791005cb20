"""chunks.jsonl of real documents, checked against what the documents themselves hold: on the
real_legal statutes every article is its chunk(s) with its id and the reference's pages (one
chunk over the page break when it fits); a paragraph and a ruled table that run over a page
break (PDFs made here with reportlab) are one paragraph and one table in one chunk; running
headers and footers are in no chunk; each chunk's characters lie, in the PDF's own text layer
(pypdfium2), inside its boxes on its pages; its pixel boxes are its boxes on the overlay PNG;
its offsets slice document.md to text holding its text."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw
from pptx import Presentation
from typer.testing import CliRunner

from pagereader.cli.main import app
from pagereader.structure.chunks import read_chunks_jsonl
from pagereader.types import Chunk

from fixtures.page_breaks import (
    RUNNING_HEADER,
    BrokenParagraph,
    BrokenTable,
    write_broken_column,
    write_broken_paragraph,
    write_broken_table,
)
from shared_data import shared
from statute_refs import reference_articles, reference_pages

STATUTES = ("N0030001", "B0000001", "constitution_1987")
RUNNER = CliRunner()


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def _parse(pdf: Path, out: Path, *flags: str) -> tuple[list[Chunk], str, Path]:
    """``pagereader parse`` of one PDF: its chunks, its document.md and its folder."""
    result = RUNNER.invoke(app, ["parse", str(pdf), "-o", str(out), "--no-resume", *flags])
    assert result.exit_code == 0, result.output
    folder = out / pdf.stem
    chunks = list(read_chunks_jsonl((folder / "chunks.jsonl").read_text(encoding="utf-8")))
    assert chunks, "chunks.jsonl is empty"
    return chunks, (folder / "document.md").read_text(encoding="utf-8"), folder


def _letters(text: str) -> str:
    """The word characters of a text, NFKC and case folded: what must agree whatever the
    spacing, punctuation or Markdown around them."""
    return "".join(re.findall(r"\w", unicodedata.normalize("NFKC", text).casefold()))


def _visible(markdown: str) -> str:
    """Markdown without its HTML comments and tags (a table's cells stay)."""
    return re.sub(r"<!--.*?-->|<[^>]+>", " ", markdown, flags=re.S)


def _subsequence(needle: str, haystack: str) -> bool:
    rest = iter(haystack)
    return all(ch in rest for ch in needle)


@pytest.fixture(scope="module")
def paragraph_pdf(tmp_path_factory: pytest.TempPathFactory) -> BrokenParagraph:
    return write_broken_paragraph(tmp_path_factory.mktemp("para") / "paragraph.pdf")


@pytest.fixture(scope="module")
def table_pdf(tmp_path_factory: pytest.TempPathFactory) -> BrokenTable:
    return write_broken_table(tmp_path_factory.mktemp("table") / "table.pdf")


@pytest.mark.parametrize("stem", STATUTES)
def test_each_article_is_its_chunk_on_the_references_pages(stem: str, tmp_path: Path) -> None:
    chunks, _, _ = _parse(shared("eval", "real_legal", f"{stem}.pdf"), tmp_path)
    want = reference_articles(stem)
    pages = reference_pages(stem)
    by_article: dict[str, list[Chunk]] = {}
    for chunk in chunks:
        if chunk.article_id:
            by_article.setdefault(chunk.article_id, []).append(chunk)
    assert list(by_article) == [f"art-{number}" for number, _ in want]
    for number, text in want:
        mine = by_article[f"art-{number}"]
        assert all(c.tokens <= 512 for c in mine)
        together = "".join(c.text for c in mine)
        assert _subsequence(_letters(text), _letters(together)), number
        assert sorted({p for c in mine for p in c.pages}) == list(pages[number]), number
        ids = [int(c.id[1:]) for c in mine]
        assert ids == list(range(ids[0], ids[0] + len(ids))), "an article's pieces in a row"
    spanning = [n for n, p in pages.items() if len(p) == 2]
    assert spanning, "each of these statutes has an article over the page break"
    for number in spanning:
        (chunk,) = by_article[f"art-{number}"]
        assert chunk.pages == (1, 2) and [b.page for b in chunk.boxes] == [1, 2]


def test_a_long_article_is_cut_at_sentences_and_keeps_its_id(tmp_path: Path) -> None:
    """At 64 tokens 第 32 條 (over the page break) is several chunks, each ending a sentence
    where it ends, each with the article's id, the first on page 1 only, the last on page 2."""
    pdf = shared("eval", "real_legal", "N0030001.pdf")
    chunks, _, _ = _parse(pdf, tmp_path, "--chunk-tokens", "64")
    parts = [c for c in chunks if c.article_id == "art-32"]
    assert len(parts) >= 3
    assert parts[0].text.startswith("第 32 條") and parts[0].pages == (1,)
    assert parts[-1].pages == (2,)
    assert all(c.tokens <= 64 for c in chunks)
    for part in parts[:-1]:
        assert part.text.endswith(("。", "；", "：", "，")), part.text[-10:]
    assert "應報當地主管機關備查" in "".join(c.text for c in parts)


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_paragraph_over_the_page_break_is_one_paragraph(lang: str, tmp_path: Path) -> None:
    """English halves join with a space, Chinese ones without."""
    paragraph_pdf = write_broken_paragraph(tmp_path / f"paragraph-{lang}.pdf", lang)
    chunks, _, _ = _parse(paragraph_pdf.path, tmp_path / "out")
    glue = "" if lang == "zh-Hant" else " "
    whole = f"{paragraph_pdf.head}{glue}{paragraph_pdf.tail}"
    holding = [c for c in chunks if whole in c.text]
    assert len(holding) == 1, [c.text[-200:] for c in chunks]
    (chunk,) = holding
    assert chunk.pages == (1, 2)
    assert f"\n\n{whole}\n\n" in f"\n\n{chunk.text}\n\n", "one paragraph, not two"
    for chunk in chunks:
        assert RUNNING_HEADER not in chunk.text
        assert not re.search(r"\bPage \d\b", chunk.text)


def test_a_paragraph_over_the_column_break_is_one_paragraph(tmp_path: Path) -> None:
    column = write_broken_column(tmp_path / "columns.pdf")
    chunks, _, _ = _parse(column.path, tmp_path / "out", "--chunk-tokens", "128")
    whole = f"{column.head} {column.tail}"
    (chunk,) = [c for c in chunks if whole in c.text]
    assert f"\n\n{whole}\n\n" in f"\n\n{chunk.text}\n\n"
    (box,) = chunk.boxes
    assert box.bbox[0] < 300 < box.bbox[2], "the box spans both columns"


def test_a_table_over_the_page_break_is_one_table(table_pdf: BrokenTable, tmp_path: Path) -> None:
    chunks, _, _ = _parse(table_pdf.path, tmp_path)
    tables = [c for c in chunks if "| Region |" in c.text or "<table>" in c.text]
    assert len(tables) == 1, [c.text[:80] for c in tables]
    (chunk,) = tables
    assert chunk.pages == (1, 2) and [b.page for b in chunk.boxes] == [1, 2]
    assert 0 < table_pdf.rows_on_first_page < len(table_pdf.rows)
    rows = [line for line in chunk.text.splitlines() if line.startswith("| ") and "---" not in line]
    cells = [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]
    assert cells == [list(table_pdf.header), *map(list, table_pdf.rows)]
    assert all(RUNNING_HEADER not in c.text for c in chunks)


def _text_in(page: pdfium.PdfPage, bbox: tuple[float, float, float, float]) -> str:
    """The text layer's characters inside ``bbox`` (top-left origin, points), read by pdfium."""
    height = page.get_height()
    x0, y0, x1, y1 = bbox
    textpage = page.get_textpage()
    try:
        return str(textpage.get_text_bounded(x0 - 1, height - y1 - 1, x1 + 1, height - y0 + 1))
    finally:
        textpage.close()


def _documents(paragraph_pdf: BrokenParagraph, table_pdf: BrokenTable) -> list[Path]:
    statutes = [shared("eval", "real_legal", f"{stem}.pdf") for stem in STATUTES]
    deck = Path(__file__).parents[2] / "examples" / "deck.pdf"  # a table with merged cells
    return [*statutes, paragraph_pdf.path, table_pdf.path, deck]


@pytest.mark.parametrize("index", range(6))
def test_boxes_hold_the_chunks_text_and_offsets_slice_document_md(
    index: int, paragraph_pdf: BrokenParagraph, table_pdf: BrokenTable, tmp_path: Path
) -> None:
    pdf_path = _documents(paragraph_pdf, table_pdf)[index]
    chunks, markdown, folder = _parse(pdf_path, tmp_path, "--chunk-tokens", "96")
    pdf = pdfium.PdfDocument(str(pdf_path))
    drawn: dict[int, Image.Image] = {}
    try:
        for chunk in chunks:
            assert [b.page for b in chunk.boxes] == list(chunk.pages)
            assert {p for p, _ in chunk.blocks} == set(chunk.pages)
            inside = Counter[str]()
            for box in chunk.boxes:
                page = pdf[box.page - 1]
                inside.update(_letters(_text_in(page, box.bbox)))
                overlay = drawn.get(box.page)
                if overlay is None:
                    png = folder / "pages" / f"{box.page:03d}.png"
                    overlay = drawn[box.page] = Image.open(png).convert("RGB")
                k = overlay.width / page.get_width()
                assert box.pixel_bbox is not None
                for got, want in zip(box.pixel_bbox, box.bbox, strict=True):
                    assert abs(got - want * k) <= 1.5, (chunk.id, box)
                x0, y0, x1, y1 = box.pixel_bbox
                assert 0 <= x0 < x1 <= overlay.width and 0 <= y0 < y1 <= overlay.height
                ImageDraw.Draw(overlay).rectangle((x0, y0, x1, y1), outline="#ff00ff", width=2)
            letters = Counter(_letters(_visible(chunk.text)))
            missing = sum((letters - inside).values())
            assert missing <= 0.01 * sum(letters.values()), (chunk.id, letters - inside)
            sliced = _letters(_visible(markdown[chunk.md_start : chunk.md_end]))
            mine = _letters(_visible(chunk.text))
            assert _subsequence(mine, sliced), chunk.id
            assert sliced.startswith(mine[:6]), chunk.id
            table = "| --- |" in chunk.text or "<table>" in chunk.text
            if not table or len(chunk.pages) == 1:
                assert sliced.endswith(mine[-3:]), chunk.id  # a table of two pages: all of it
    finally:
        pdf.close()
    for page, image in drawn.items():
        image.save(tmp_path / f"chunks-{pdf_path.stem}-{page:03d}.png")
    assert drawn


@pytest.mark.libreoffice
def test_each_slide_is_a_chunk_with_its_notes(tmp_path: Path) -> None:
    """examples/deck.pptx: one chunk a slide, under the slide's title, holding its speaker
    notes (both read here with python-pptx)."""
    deck = Path(__file__).parents[2] / "examples" / "deck.pptx"
    slides = list(Presentation(str(deck)).slides)
    result = RUNNER.invoke(app, ["parse", str(deck), "-o", str(tmp_path), "--no-resume"])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "deck" / "chunks.jsonl").read_text(encoding="utf-8")
    chunks = read_chunks_jsonl(text)
    assert [c.pages for c in chunks] == [(n,) for n in range(1, len(slides) + 1)]
    for chunk, slide in zip(chunks, slides, strict=True):
        title = slide.shapes.title
        assert title is not None
        assert chunk.heading_path[:1] == (" ".join(title.text_frame.text.split()),)
        notes = slide.notes_slide.notes_text_frame.text
        assert notes and _letters(notes) in _letters(chunk.text)
        assert [b.page for b in chunk.boxes] == list(chunk.pages)
