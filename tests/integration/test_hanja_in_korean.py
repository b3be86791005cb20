"""Hanja in brackets inside Korean lines of a scan are read by the reader of Han (PP-OCR), not
left to Tesseract's Korean model, which reads 家事 as junk ("※뿌") and 性 as a backslash: on a
Korean statute page made by code and scanned, every bracketed Hanja comes out as printed, the
rest of each line as well as before, and no Han character the page does not print is written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pagereader.evaluate.degrade import write_scans
from pagereader.pipeline import parse
from pagereader.text.chars import char_consistency, normalize

from fixtures.hanja_statute import HANJA, write_hanja_statute


@pytest.fixture(scope="module")
def scans(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    folder = tmp_path_factory.mktemp("hanja")
    pdf = folder / "statute.pdf"
    text = "\n".join(write_hanja_statute(pdf))
    write_scans(pdf, folder / "light.pdf", "light")
    write_scans(pdf, folder / "heavy.pdf", "heavy")
    return folder / "light.pdf", folder / "heavy.pdf", text


def _hanja(markdown: str) -> list[str]:
    return re.findall(r"\([\u3400-\u9fff]+\)", markdown.replace(" ", ""))


def test_every_bracketed_hanja_of_a_light_scan_is_read(scans: tuple[Path, Path, str]) -> None:
    light, _, text = scans
    result = parse(light)
    assert _hanja(result.markdown) == list(HANJA)
    score = char_consistency(normalize(result.markdown), normalize(text, markdown=False))
    assert score >= 0.995, result.markdown


def test_a_heavy_scan_writes_no_wrong_hanja(scans: tuple[Path, Path, str]) -> None:
    _, heavy, text = scans
    result = parse(heavy)
    found = _hanja(result.markdown)
    assert set(found) <= set(HANJA), found
    assert len(found) >= len(HANJA) - 1, result.markdown
    score = char_consistency(normalize(result.markdown), normalize(text, markdown=False))
    assert score >= 0.97, result.markdown
