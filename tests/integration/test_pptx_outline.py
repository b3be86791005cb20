"""A slide's outline as the deck writes it, read from the PPTX's own XML: bullets nested by
their outline level keep that level in the Markdown (relative to the list's top level, never
skipping one), auto-numbered paragraphs stay numbered, each counted within its own level, and a
table is a Markdown table, not list items. The deck is made here with python-pptx."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lxml import etree
from pptx import Presentation

from pagereader.pipeline import parse
from pagereader.text.tables import read_markdown_tables, slot_rows

pytestmark = pytest.mark.skipif(
    shutil.which("soffice") is None and shutil.which("libreoffice") is None,
    reason="PPTX needs LibreOffice for its page images",
)

_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
OUTLINE = (
    (1, "Board of directors", False),
    (2, "Chair: Ana Souza", False),
    (2, "Treasurer: Ben Okafor", False),
    (3, "Audit subcommittee", False),
    (1, "Agenda", False),
    (2, "Approve the minutes", True),
    (2, "Elect the officers", True),
    (1, "Closing remarks", False),
)
"""(outline level, text, auto-numbered) of each paragraph of the body; the list's shallowest
level is 1, as in decks whose first level is indented."""
WANT = """- Board of directors
  - Chair: Ana Souza
  - Treasurer: Ben Okafor
    - Audit subcommittee
- Agenda
  1. Approve the minutes
  2. Elect the officers
- Closing remarks"""
TABLE = (("Region", "Members"), ("North", "120"), ("South", "85"))


def _deck(path: Path) -> Path:
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Annual meeting"
    body = slide.placeholders[1].text_frame
    for index, (level, text, numbered) in enumerate(OUTLINE):
        paragraph = body.paragraphs[0] if index == 0 else body.add_paragraph()
        paragraph.text = text
        paragraph.level = level
        if numbered:
            props = paragraph._p.get_or_add_pPr()
            etree.SubElement(props, f"{{{_A}}}buAutoNum", type="arabicPeriod")
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Members by region"
    frame = slide.shapes.add_table(3, 2, 914400, 1828800, 4572000, 1371600)
    for r, row in enumerate(TABLE):
        for c, cell in enumerate(row):
            frame.table.cell(r, c).text = cell
    deck.save(str(path))
    return path


def test_outline_levels_numbers_and_tables_are_kept(tmp_path: Path) -> None:
    result = parse(_deck(tmp_path / "outline.pptx"))
    first, second = result.pages
    assert first.markdown.strip().startswith("# Annual meeting")
    assert WANT in first.markdown
    assert second.markdown.strip().startswith("# Members by region")
    (table,) = read_markdown_tables(second.markdown)
    assert slot_rows(table) == [list(row) for row in TABLE]
    assert "- North" not in second.markdown
