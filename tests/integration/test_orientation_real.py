"""Orientation on real scans: upright pages are never turned, turned pages are turned right.

Uses ../shared/eval (real_legal: statutes scanned light and heavy, with bleed-through; docling's
scanned page at 0/90/180/270 degrees). Missing data fails the test: it is the evidence.
"""

from __future__ import annotations

import re

import pytest

from pagereader.engines import registry
from pagereader.evaluate.metrics import char_consistency, normalize
from pagereader.pipeline import parse
from pagereader.sources import open_source
from pagereader.stages.script import upright_and_script

from shared_data import shared_root

EVAL = shared_root() / "eval"
LEGAL = EVAL / "real_legal"
DOCLING_OCR = EVAL / "docling_testdata" / "ocr"
SCRIPTS = {"N0030001": "han", "B0000001": "han", "constitution_1987": "hangul"}


@pytest.mark.parametrize("stem", sorted(SCRIPTS))
@pytest.mark.parametrize("level", ["light", "heavy"])
def test_upright_scans_stay_upright_and_get_their_script(stem: str, level: str) -> None:
    path = LEGAL / f"{stem}-scan-{level}.pdf"
    assert path.is_file(), f"missing shared eval data: {path}"
    source = open_source(path, password=None, max_image_pixels=200_000_000)
    try:
        for index in range(1, source.page_count + 1):
            upright = upright_and_script(source.render(index, 200), registry)
            assert upright.turned == 0, (path.name, index, upright.reason)
            assert upright.script == SCRIPTS[stem], (path.name, index, upright.reason)
    finally:
        source.close()


@pytest.mark.parametrize(
    "name", ["ocr_test", "ocr_test_rotated_90", "ocr_test_rotated_180", "ocr_test_rotated_270"]
)
def test_docling_page_is_read_in_every_rotation(name: str) -> None:
    truth = DOCLING_OCR / "groundtruth" / "ocr_test.md"
    assert truth.is_file(), f"missing shared eval data: {truth}"
    reference = re.sub(r"<!--.*?-->", "", truth.read_text(encoding="utf-8"))
    page = parse(DOCLING_OCR / f"{name}.pdf").pages[0]
    assert page.decision is not None
    turned = "page turned" in page.decision.script_reason
    assert turned == (name != "ocr_test"), page.decision.script_reason
    text = " ".join(block.text for block in page.blocks)
    assert char_consistency(normalize(text), normalize(reference)) >= 0.95, text


@pytest.mark.parametrize("level", ["light", "heavy"])
def test_korean_scans_read_once_without_latin_noise(level: str) -> None:
    """Korean statute scans with bleed-through: the text matches, clause numbers (①, ②) are
    kept, and no Latin specks from the noise come through."""
    path = LEGAL / f"constitution_1987-scan-{level}.pdf"
    assert path.is_file(), f"missing shared eval data: {path}"
    result = parse(path)
    assert result.status == "ok", result.errors
    for page in result.pages:
        reference = (LEGAL / f"constitution_1987.p{page.index}.ref.txt").read_text("utf-8")
        text = "\n".join(block.text for block in page.blocks)
        assert char_consistency(normalize(text), normalize(reference)) >= 0.95
        latin = sum(ch.isascii() and ch.isalpha() for ch in text)
        assert latin <= sum(ch.isascii() and ch.isalpha() for ch in reference) + 3, text
        assert page.decision is not None and page.decision.script == "hangul"
        clauses = sum("\u2460" <= ch <= "\u2473" for ch in text)
        assert clauses >= sum("\u2460" <= ch <= "\u2473" for ch in reference) - 1
