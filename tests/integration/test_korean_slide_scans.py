"""Scanned Korean slides, made by code (the synthetic set's deck, scanned light, medium and
heavy with the next page bleeding through): every page read, its title whole, and no
bleed-through read as text.

Before, a title among bullets came out as junk in Tesseract's strip (뜨세 정리 언원 보고), or
with a shadow line of its glyphs' upper halves appended (도입 일정 및 역할 분담 ㅇ 01 0! ㅁ 한 브);
one page came out empty because one sampled line Tesseract skipped pulled the Hangul probe's
confidence under its bar; and the mirrored text of the next page was read as Hangul junk."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import pagereader
from pagereader.evaluate import synth_text as corpus
from pagereader.evaluate.degrade import LEVELS, LevelName, write_scans
from pagereader.evaluate.metrics import char_consistency, normalize
from pagereader.evaluate.synth import write_deck_pdf

pytestmark = pytest.mark.skipif(
    shutil.which("tesseract") is None, reason="Korean scans are read by Tesseract"
)


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    folder = tmp_path_factory.mktemp("slides-ko")
    pdf = folder / "slides-ko.pdf"
    truth = write_deck_pdf(pdf, corpus.SLIDES["ko"], table=None)
    return pdf, [page.body for page in truth.pages]


@pytest.mark.parametrize("level", LEVELS)
def test_every_scanned_korean_slide_is_read(
    deck: tuple[Path, list[str]], tmp_path: Path, level: LevelName
) -> None:
    pdf, bodies = deck
    scan = tmp_path / f"slides-ko.scan-{level}.pdf"
    write_scans(pdf, scan, level)
    result = pagereader.parse(scan)
    assert len(result.pages) == len(bodies)
    for page, body in zip(result.pages, bodies, strict=True):
        assert page.decision is not None and page.decision.script == "hangul", page.index
        text = normalize(page.markdown, markdown=True)
        assert char_consistency(text, normalize(body)) >= 0.97, (level, page.index, text)
        title = body.splitlines()[0]
        assert page.blocks[0].text.replace(" ", "") == title.replace(" ", ""), (level, text)
