"""Auto-number labels and bullet inheritance through a deck's master, read from decks made here
with python-pptx (no renderer needed: the shapes are read from the XML)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lxml import etree
from pptx import Presentation
from pptx.util import Inches

from pagereader.sources.pptx_bullets import number_label
from pagereader.sources.pptx_native import read_deck
from pagereader.sources.pptx_order import reading_order
from pagereader.sources.pptx_shapes import ShapeItem

_A = "http://schemas.openxmlformats.org/drawingml/2006/main"


@pytest.mark.parametrize(
    ("scheme", "number", "label"),
    [
        ("arabicPeriod", 3, "3."),
        ("arabicParenR", 12, "12)"),
        ("arabicParenBoth", 2, "(2)"),
        ("arabicPlain", 7, "7"),
        ("alphaLcPeriod", 1, "a."),
        ("alphaLcParenR", 3, "c)"),
        ("alphaUcPeriod", 26, "Z."),
        ("alphaLcPeriod", 27, "aa."),
        ("alphaUcParenBoth", 28, "(BB)"),
        ("romanLcPeriod", 4, "iv."),
        ("romanUcPeriod", 9, "IX."),
        ("romanUcParenR", 1994, "MCMXCIV)"),
        ("romanLcParenBoth", 40, "(xl)"),
        ("circleNumDbPlain", 3, "③"),
        ("someFutureScheme", 5, "5."),
    ],
)
def test_number_labels_read_as_powerpoint_prints_them(scheme: str, number: int, label: str) -> None:
    assert number_label(scheme, number) == label


def _auto_number(paragraph: Any, scheme: str, start: str | None = None) -> None:
    props = paragraph._p.get_or_add_pPr()
    attributes = {"type": scheme} if start is None else {"type": scheme, "startAt": start}
    etree.SubElement(props, f"{{{_A}}}buAutoNum", **attributes)


def _items(path: Path) -> list[tuple[str, str]]:
    deck = read_deck(path)
    assert deck is not None
    return [(item.kind, item.text) for item in deck.slides[0].items]


def test_a_masters_placeholder_numbers_a_level_and_counts_restart_per_scheme(
    tmp_path: Path,
) -> None:
    deck = Presentation()
    layout = deck.slide_layouts[1]
    master_body = next(p for p in deck.slide_master.placeholders if p.placeholder_format.idx == 1)
    style = master_body._element.find(f".//{{{_A}}}lstStyle")
    level2 = etree.SubElement(style, f"{{{_A}}}lvl2pPr")
    etree.SubElement(level2, f"{{{_A}}}buAutoNum", type="romanLcPeriod")
    slide = deck.slides.add_slide(layout)
    slide.shapes.title.text = "Steps"
    body = slide.placeholders[1].text_frame
    rows = [(0, "Prepare"), (1, "Clean"), (1, "Dry"), (0, "Assemble"), (1, "Fit")]
    for index, (level, text) in enumerate(rows):
        paragraph = body.paragraphs[0] if index == 0 else body.add_paragraph()
        paragraph.text, paragraph.level = text, level
    box = slide.shapes.add_textbox(Inches(1), Inches(6), Inches(8), Inches(1))
    box.text_frame.text = "Late"
    box.text_frame.add_paragraph().text = "Later"
    box.text_frame.add_paragraph().text = "Latest"
    first, second, third = box.text_frame.paragraphs
    _auto_number(first, "arabicParenR", "5")
    _auto_number(second, "arabicParenR", "5")
    _auto_number(third, "alphaUcPeriod")
    deck.save(str(tmp_path / "master.pptx"))

    assert _items(tmp_path / "master.pptx") == [
        ("title", "Steps"),
        ("list", "Prepare\n  i. Clean\n  ii. Dry\nAssemble\n  i. Fit"),
        ("list", "5) Late\n6) Later\nA. Latest"),
    ]


def test_a_split_box_keeps_its_parts_in_paragraph_order_when_their_boxes_tie() -> None:
    tied = (0.0, 0.0, 0.0, 0.0)
    parts = (
        ShapeItem(kind="text", box=tied, text="intro"),
        ShapeItem(kind="list", box=tied, text="one\ntwo"),
        ShapeItem(kind="text", box=tied, text="closing"),
    )
    box = ShapeItem(kind="text", box=tied, text="all", parts=parts)
    beside = ShapeItem(kind="text", box=tied, text="beside")
    ordered = reading_order([box, beside], (9144000.0, 6858000.0))
    assert [item.text for item in ordered] == ["intro", "one\ntwo", "closing", "beside"]


def test_a_number_counts_on_past_its_sub_items_and_restarts_after_plain_text(
    tmp_path: Path,
) -> None:
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    box = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(8), Inches(3))
    rows = [(0, "One", True), (1, "detail", False), (0, "Two", True), (0, "Break", None)]
    rows.append((0, "Again", True))
    for index, (level, text, numbered) in enumerate(rows):
        paragraph = box.text_frame.paragraphs[0] if index == 0 else box.text_frame.add_paragraph()
        paragraph.text, paragraph.level = text, level
        if numbered:
            _auto_number(paragraph, "arabicPeriod")
        elif numbered is False:
            props = paragraph._p.get_or_add_pPr()
            etree.SubElement(props, f"{{{_A}}}buChar", char="•")
    deck.save(str(tmp_path / "steps.pptx"))

    assert _items(tmp_path / "steps.pptx") == [
        ("list", "1. One\n  detail\n2. Two"),
        ("text", "Break"),
        ("list", "1. Again"),
    ]


def test_a_start_past_the_schema_is_held_to_its_bound(tmp_path: Path) -> None:
    """A hostile ``startAt`` (2,000,000,000 with letters) would make each label as long as
    the number is large; the schema's bound (32767) holds it to a few hundred characters."""
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    box = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(8), Inches(1))
    box.text_frame.text = "Huge"
    _auto_number(box.text_frame.paragraphs[0], "alphaLcPeriod", "2000000000")
    box.text_frame.add_paragraph().text = "Roman"
    _auto_number(box.text_frame.paragraphs[1], "romanUcPeriod", "-7")
    deck.save(str(tmp_path / "huge.pptx"))

    ((_, text),) = _items(tmp_path / "huge.pptx")
    huge, roman = text.split("\n")
    assert huge == number_label("alphaLcPeriod", 32767) + " Huge"
    assert len(huge) < 1300
    assert roman == "I. Roman"
