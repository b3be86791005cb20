"""Repeated slides: a page whose pixels equal an earlier page's reuses its result."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from pagereader.pipeline import parse

DECK = Path(__file__).resolve().parents[2] / "examples" / "deck.pdf"


def test_identical_pages_are_read_once(tmp_path: Path) -> None:
    source = pdfium.PdfDocument(str(DECK))
    repeated = pdfium.PdfDocument.new()
    repeated.import_pages(source, [0, 1, 0])
    path = tmp_path / "repeated.pdf"
    repeated.save(str(path))
    repeated.close()
    source.close()

    pages = parse(path).pages
    assert [p.duplicate_of for p in pages] == [None, None, 1]
    assert pages[2].index == 3
    assert [b.text for b in pages[2].blocks] == [b.text for b in pages[0].blocks]
    assert pages[2].markdown == pages[0].markdown
    assert pages[2].timings is not None
    assert pages[2].timings.stages["recognize"] == 0.0
