"""The embedded path on the generated fixtures: text recovered, tokens that matter kept."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pagereader.evaluate.metrics import (
    char_consistency,
    critical_agreement,
    critical_patterns,
    normalize,
)
from pagereader.pipeline import parse
from pagereader.render.markdown import page_text
from pagereader.types import DocumentResult

from fixtures import Fixtures

HAVE_TESSERACT = shutil.which("tesseract") is not None
HAVE_SOFFICE = shutil.which("soffice") is not None or shutil.which("libreoffice") is not None
_CACHE: dict[Path, DocumentResult] = {}


def parsed(path: Path) -> DocumentResult:
    """Parse each fixture once per test session."""
    if path not in _CACHE:
        _CACHE[path] = parse(path)
    return _CACHE[path]


def scores(fixtures: Fixtures, path: Path) -> list[tuple[str, float, bool, str]]:
    """(lang, character consistency, critical tokens identical, page class) per page."""
    result = parsed(path)
    assert result.status == "ok", result.errors
    rows: list[tuple[str, float, bool, str]] = []
    for page, truth in zip(result.pages, fixtures.pages(path), strict=True):
        hyp = page_text(page.blocks)
        consistency = char_consistency(normalize(hyp), normalize(truth.text))
        lang = truth.lang.split("+")[0]
        critical = critical_agreement(hyp, truth.text, critical_patterns(lang))
        assert page.decision is not None
        rows.append((truth.lang, consistency, critical.ok, page.decision.page_class))
    return rows


@pytest.mark.parametrize("name", ["deck_pdf", "legal_pdf", "two_column_pdf"])
def test_digital_pages_are_exact(fixtures: Fixtures, name: str) -> None:
    for lang, consistency, critical_ok, page_class in scores(fixtures, getattr(fixtures, name)):
        assert page_class == "digital", (name, lang)
        assert consistency >= 0.99, (name, lang, consistency)
        assert critical_ok, (name, lang)


def test_digital_pages_are_never_ocred(fixtures: Fixtures) -> None:
    for path in (fixtures.deck_pdf, fixtures.legal_pdf, fixtures.two_column_pdf):
        for page in parsed(path).pages:
            for block in page.blocks:
                if block.block.kind == "figure":
                    continue
                engines = {attempt.engine for attempt in block.attempts}
                assert engines <= {"textlayer", "grid"}, (path.name, block.block.kind, engines)


def test_legal_modal_words_and_articles_in_order(fixtures: Fixtures) -> None:
    result = parsed(fixtures.legal_pdf)
    zh = page_text(result.pages[1].blocks)
    truth = fixtures.pages(fixtures.legal_pdf)[1].text
    tokens = critical_agreement(zh, truth, critical_patterns("zh-Hant"))
    assert tokens.ok
    assert "第一條" in zh and zh.index("第一條") < zh.index("第五條")
    assert "不得" in zh and "得" in zh and "應" in zh


def test_two_column_reading_order(fixtures: Fixtures) -> None:
    truth = fixtures.pages(fixtures.two_column_pdf)[0].text.splitlines()
    text = normalize(page_text(parsed(fixtures.two_column_pdf).pages[0].blocks))
    positions = [text.find(normalize(line)) for line in truth if normalize(line)]
    assert all(p >= 0 for p in positions)
    assert positions == sorted(positions), "lines out of reading order"


@pytest.mark.parametrize("name", ["dense_pdf", "table_pdf"])
def test_small_print_and_big_tables_are_dense(fixtures: Fixtures, name: str) -> None:
    pages = parsed(getattr(fixtures, name)).pages
    assert [p.decision.page_class for p in pages if p.decision] == ["dense"]
    assert pages[0].decision is not None
    assert pages[0].decision.max_pixels > 1_003_520


def test_big_table_is_rebuilt_as_a_grid(fixtures: Fixtures) -> None:
    page = parsed(fixtures.table_pdf).pages[0]
    tables = [b for b in page.blocks if b.block.kind == "table"]
    assert tables and tables[0].engine == "grid"
    assert tables[0].html is not None and tables[0].html.count("<tr>") >= 20


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_TESSERACT, reason="Korean scans need tesseract")
def test_scans_are_read_in_every_language(fixtures: Fixtures) -> None:
    for path in (
        fixtures.scan_pdf,
        fixtures.deck_scan_pdf,
        *fixtures.scan_pngs,
        fixtures.mixed_scan_png,
    ):
        for lang, consistency, _critical, page_class in scores(fixtures, path):
            assert page_class == "scan", (path.name, lang)
            assert consistency >= 0.90, (path.name, lang, consistency)


@pytest.mark.skipif(not HAVE_TESSERACT, reason="Hangul detection on scans needs tesseract")
def test_scan_script_picks_the_engine(fixtures: Fixtures) -> None:
    pages = parsed(fixtures.scan_pdf).pages
    engines = [(p.decision.script, p.decision.text_engine) for p in pages if p.decision]
    assert engines == [("latin", "rapidocr"), ("han", "rapidocr"), ("hangul", "tesseract")]
    assert "Hangul" in pages[2].decision.engine_reason  # type: ignore[union-attr]
    slides = parsed(fixtures.deck_scan_pdf).pages
    assert [p.decision.script for p in slides if p.decision] == ["latin", "han", "hangul", "latin"]


@pytest.mark.skipif(not HAVE_SOFFICE, reason="PPTX needs LibreOffice")
def test_pptx_slides_and_notes(fixtures: Fixtures) -> None:
    result = parsed(fixtures.pptx)
    truths = fixtures.pages(fixtures.pptx)
    for page, truth in zip(result.pages[:3], truths[:3], strict=True):
        consistency = char_consistency(normalize(page_text(page.blocks)), normalize(truth.text))
        assert consistency >= 0.99, (truth.lang, consistency)
        assert page.notes and normalize(page.notes) == normalize(truth.notes)
    assert "> **Notes**" in result.markdown


@pytest.mark.parametrize("degrees", [90, 180, 270])
def test_rotated_scan_is_turned_upright(fixtures: Fixtures, tmp_path: Path, degrees: int) -> None:
    from PIL import Image

    rotated = tmp_path / f"rotated-{degrees}.png"
    Image.open(fixtures.scan_png).rotate(degrees, expand=True).save(rotated)
    page = parse(rotated).pages[0]
    assert page.decision is not None
    assert page.decision.page_class == "scan"
    assert "page turned" in page.decision.script_reason
    truth = fixtures.pages(fixtures.scan_png)[0].text
    consistency = char_consistency(normalize(page_text(page.blocks)), normalize(truth))
    assert consistency >= 0.90, consistency
