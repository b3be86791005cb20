"""Heading levels on real statutes (../shared/eval/real_legal): the Korean constitution's
chapter heading (제2장) one level below its title, digital and scanned light and heavy, with
every article under both; a Chinese statute's name (法規名稱：...) its top heading with every
article under it. Title and chapter come from the reference text, read by this test."""

from __future__ import annotations

import re

import pytest

from pagereader.pipeline import parse
from pagereader.text.chars import normalize
from pagereader.types import BlockResult, DocumentResult

from shared_data import shared

pytestmark = pytest.mark.slow  # scans through the embedded OCR

_ARTICLE = re.compile(r"^(?:제\s*\d+\s*조|第\s*\S+\s*條)")


def _key(text: str) -> str:
    return normalize(text)


def _reference_lines(stem: str) -> list[str]:
    text = shared("eval", "real_legal", f"{stem}.p1.ref.txt").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()]


def _blocks(result: DocumentResult) -> list[BlockResult]:
    return [b for page in result.pages for b in sorted(page.blocks, key=lambda b: b.block.order)]


def _articles(result: DocumentResult) -> list[BlockResult]:
    return [b for b in _blocks(result) if _ARTICLE.match(b.text.strip())]


@pytest.mark.parametrize("variant", ["", "-scan-light", "-scan-heavy"])
def test_the_constitutions_chapter_is_one_level_below_its_title(variant: str) -> None:
    lines = _reference_lines("constitution_1987")
    title, chapter = lines[0], next(line for line in lines if re.match(r"^제\d+장", line))
    result = parse(shared("eval", "real_legal", f"constitution_1987{variant}.pdf"))
    headings = [b for b in _blocks(result) if b.level is not None]
    assert headings, "no heading found"
    chapter_block = next(b for b in headings if _key(chapter) in _key(b.text))
    assert [_key(p) for p in chapter_block.heading_path] == [_key(title)]
    assert chapter_block.level == 2
    titled = [b for b in headings if _key(b.text) == _key(title)]
    if titled:  # read as a block of its own (else OCR read it with the chapter, as one block)
        assert titled[0].level == 1 and titled[0].heading_path == ()
    articles = _articles(result)
    assert len(articles) >= 3
    for block in articles:
        assert [_key(p) for p in block.heading_path] == [_key(title), _key(chapter)], block.text


@pytest.mark.parametrize("stem", ["N0030001", "B0000001"])
def test_a_chinese_statutes_name_is_its_top_heading(stem: str) -> None:
    title = _reference_lines(stem)[0]
    result = parse(shared("eval", "real_legal", f"{stem}.pdf"))
    headings = [b for b in _blocks(result) if b.level is not None]
    assert [(_key(b.text), b.level) for b in headings] == [(_key(title), 1)]
    articles = _articles(result)
    assert len(articles) >= 3
    assert all([_key(p) for p in b.heading_path] == [_key(title)] for b in articles)
