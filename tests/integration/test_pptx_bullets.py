"""Bullets as PowerPoint shows them: a paragraph is a list item when its own properties, its
box's list style, its layout placeholder or the master's text style for its kind of shape say
so, level by level; a box partly bulleted is read as text and lists in paragraph order; an
auto-number keeps its scheme and first number. The deck is made by code
(tests/fixtures/pptx_bullets.py) and rendered by LibreOffice for the boxes' units."""

from __future__ import annotations

import shutil

import pytest

from pagereader.pipeline import parse
from pagereader.types import DocumentResult, PageResult

from fixtures.pptx_bullets import (
    ARABIC_WANT,
    BULLETS,
    CLOSING,
    INTRO,
    LETTERS_TEXT,
    LETTERS_WANT,
    MIXED_WANT,
    OUTLINE_WANT,
    PLAIN_WANT,
    STYLED_WANT,
    BulletDeck,
    build_bullet_deck,
)

pytestmark = pytest.mark.skipif(
    shutil.which("soffice") is None and shutil.which("libreoffice") is None,
    reason="PPTX needs LibreOffice for its page images",
)


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> tuple[BulletDeck, DocumentResult]:
    built = build_bullet_deck(tmp_path_factory.mktemp("bullets") / "bullets.pptx")
    return built, parse(built.path)


def _page(result: DocumentResult, number: int) -> PageResult:
    return next(p for p in result.pages if p.index == number)


def test_a_box_of_text_bullets_and_text_reads_as_text_list_text(
    deck: tuple[BulletDeck, DocumentResult],
) -> None:
    built, result = deck
    assert MIXED_WANT in result.markdown
    page = _page(result, built.mixed)
    blocks = sorted(page.blocks, key=lambda b: b.block.order)
    assert [(b.block.kind, b.text) for b in blocks] == [
        ("text", INTRO),
        ("list", "\n".join(BULLETS)),
        ("text", CLOSING),
    ]
    # each part lies in its own band of the box, top to bottom in paragraph order
    tops = [b.block.bbox[1] for b in blocks]
    bottoms = [b.block.bbox[3] for b in blocks]
    assert tops == sorted(tops) and bottoms == sorted(bottoms)
    assert all(b.block.bbox[3] > b.block.bbox[1] for b in blocks)
    assert all(bottoms[i] <= tops[i + 1] + 0.01 for i in range(len(blocks) - 1))


def test_a_layout_without_a_bullet_at_the_first_level_keeps_it_text(
    deck: tuple[BulletDeck, DocumentResult],
) -> None:
    built, result = deck
    markdown = _page(result, built.outline).markdown
    assert markdown.strip().startswith("# Quarter review")
    assert OUTLINE_WANT in markdown


def test_a_plain_text_box_follows_the_other_style_not_the_body_style(
    deck: tuple[BulletDeck, DocumentResult],
) -> None:
    built, result = deck
    markdown = _page(result, built.plain).markdown
    assert PLAIN_WANT in markdown
    assert "- A plain note" not in markdown
    assert STYLED_WANT in markdown


def test_auto_numbers_keep_their_start_and_scheme(
    deck: tuple[BulletDeck, DocumentResult],
) -> None:
    built, result = deck
    page = _page(result, built.numbers)
    assert ARABIC_WANT in page.markdown
    assert LETTERS_WANT in page.markdown
    assert LETTERS_TEXT in [b.text for b in page.blocks]
