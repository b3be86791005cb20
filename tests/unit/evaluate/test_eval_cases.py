"""Dataset readers on the real evaluation folders and on a small manifest."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from pagereader.errors import InputError
from pagereader.evalset_manifest import guess_lang
from pagereader.evaluate.cases import detect_format, read_dataset
from pagereader.text.chars import ARTICLE_NUMBERS

from shared_data import shared


@pytest.fixture
def eval_dir() -> Path:
    """The shared evaluation data (the test fails when it is missing)."""
    return shared("eval")


def test_manifest_reader_resolves_paths_and_default_patterns(tmp_path: Path) -> None:
    (tmp_path / "legal-zh.txt").write_text("第一條 人民不得違反。", encoding="utf-8")
    (tmp_path / "legal-en.txt").write_text("Article 1 shall apply.", encoding="utf-8")
    lines = [
        {
            "file": "legal-zh.pdf",
            "page": 2,
            "reference": "legal-zh.txt",
            "lang": "zh-Hant",
            "critical": ["第[一二三]+條"],
        },
        {"file": "legal-en.pdf", "page": 1, "reference": "legal-en.txt", "lang": "en"},
    ]
    (tmp_path / "manifest.jsonl").write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    assert detect_format(tmp_path) == "manifest"
    zh, en = read_dataset(tmp_path, name="synth")
    assert (zh.file, zh.page, zh.lang, zh.dataset) == (
        tmp_path / "legal-zh.pdf",
        2,
        "zh-Hant",
        "synth",
    )
    assert zh.reference == "第一條 人民不得違反。"
    assert zh.critical == ("第[一二三]+條",)
    assert ARTICLE_NUMBERS["en"][0] in en.critical
    assert en.kind == "text"


def test_manifest_with_missing_reference_names_the_line(tmp_path: Path) -> None:
    (tmp_path / "manifest.jsonl").write_text(
        '{"file": "a.pdf", "page": 1, "reference": "no.txt"}\n'
    )
    with pytest.raises(InputError, match="line 1"):
        read_dataset(tmp_path)


def test_unknown_directory_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("x")
    with pytest.raises(InputError, match="not a dataset"):
        read_dataset(tmp_path)


def test_guess_lang() -> None:
    assert guess_lang("제1조 목적") == "ko"
    assert guess_lang("第一條 人民") == "zh-Hant"
    assert guess_lang("Plain English text") == "en"


def test_olmocr_sample_becomes_23_pages_with_auto_baselines(eval_dir: Path) -> None:
    cases = read_dataset(eval_dir / "olmocr_bench_sample")
    assert detect_format(eval_dir / "olmocr_bench_sample") == "olmocr"
    assert len(cases) == 23
    types = Counter(r.type for c in cases for r in c.rules)
    # 99 + 1 rules from the files, plus a page-1 baseline for the 20 PDFs that lack one
    assert types == Counter(present=30, absent=24, table=20, order=13, math=12, baseline=21)
    notes = [c.page for c in cases if c.file.name == "mattsnotes.pdf"]
    assert notes == [1, 2, 3]
    assert all(c.kind == "rules" and c.file.is_file() for c in cases)


def test_docling_reader_pages_and_languages(eval_dir: Path) -> None:
    cases = read_dataset(eval_dir / "docling_testdata")
    assert detect_format(eval_dir / "docling_testdata") == "docling"
    by_file = Counter(c.file.name for c in cases)
    assert by_file["normal_4pages.pdf"] == 4
    assert by_file["2206.01062.tif"] == 2  # only the TIFF's two frames of a 9-page reference
    assert by_file["ocr_test_rotated_90.pdf"] == 1
    korean = next(c for c in cases if c.file.name == "normal_4pages.pdf" and c.page == 1)
    assert korean.lang == "ko" and "국회입법조사처" in (korean.reference or "")
    webp = next(c for c in cases if c.file.name == "webp-test.webp")
    assert webp.reference is not None and webp.reference.strip().startswith("Docling bundles")
    assert {c.lang for c in cases} == {"en", "ko", "ar"}


def test_textref_reader_on_tesseract_and_cjk_sets(eval_dir: Path) -> None:
    cases = {c.file.name: c for c in read_dataset(eval_dir / "tesseract_test")}
    assert set(cases) == {
        "8071_093.3B.tif",
        "8087_054.3B.tif",
        "eurotext.tif",
        "phototest.tif",
        "phototest-rotated-180.png",
    }
    assert cases["phototest-rotated-180.png"].reference == cases["phototest.tif"].reference
    assert "quick brown dog" in (cases["phototest.tif"].reference or "")
    cjk = {c.file.name: c for c in read_dataset(eval_dir / "cjk_extras")}
    assert cjk["tesseractjs_chinese_tra.png"].lang == "zh-Hant"
    assert cjk["korean-text-with-tables.pdf"].lang == "ko"
