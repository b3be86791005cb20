"""The synthetic documents: text layers equal their ground truth, scans are image-only and
degrade in order, the PPTX has notes, and make_evalset writes a dataset that reads back."""

from __future__ import annotations

import json
import re
import struct
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from PIL import Image
from pptx import Presentation
from reportlab.pdfbase import pdfmetrics

from pagereader.errors import DependencyError
from pagereader.evaluate import synth, synth_text
from pagereader.evaluate.cases import read_manifest
from pagereader.evaluate.degrade import LEVELS, degrade, psnr, render_pages
from pagereader.evaluate.fonts import LANG_FONT, find_font
from pagereader.evaluate.make_evalset import CRITICAL, make_evalset
from pagereader.evaluate.synth import wrap

from fixtures import Fixtures


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def text_layer(path: Path, password: str | None = None) -> list[str]:
    document = pdfium.PdfDocument(path, password=password)
    try:
        return [page.get_textpage().get_text_range() for page in document]
    finally:
        document.close()


def image_objects(path: Path) -> list[int]:
    document = pdfium.PdfDocument(path)
    try:
        return [len(list(p.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]))) for p in document]
    finally:
        document.close()


@pytest.mark.parametrize("attr", ["deck_pdf", "legal_pdf", "dense_pdf", "table_pdf"])
def test_text_layer_equals_ground_truth(fixtures: Fixtures, attr: str) -> None:
    path: Path = getattr(fixtures, attr)
    truth = fixtures.pages(path)
    layers = text_layer(path)
    assert len(layers) == len(truth)
    for layer, page in zip(layers, truth, strict=True):
        assert squash(layer) == squash(page.text), f"{path.name} page {page.page}"


def test_languages_per_page(fixtures: Fixtures) -> None:
    assert [p.lang for p in fixtures.pages(fixtures.deck_pdf)] == ["en", "zh-Hant", "ko", "en"]
    assert [p.lang for p in fixtures.pages(fixtures.legal_pdf)] == ["en", "zh-Hant", "ko"]
    assert fixtures.pages(fixtures.scan_pngs[1])[0].lang == "zh-Hant"
    assert fixtures.pages(fixtures.mixed_scan_png)[0].lang == "en+zh-Hant"


def test_legal_pages_carry_articles_and_modal_words(fixtures: Fixtures) -> None:
    en, zh, ko = (p.text for p in fixtures.pages(fixtures.legal_pdf))
    assert re.findall(r"Article \d+", en) == ["Article 1", "Article 2", "Article 3"]
    assert "Section 2.1" in en and {"shall", "may", "must"} <= set(re.findall(r"\w+", en))
    articles = re.findall("第[一二三四五六七八九十]+條", zh)
    assert articles == ["第一條", "第二條", "第三條", "第四條", "第五條"]
    assert all(word in zh for word in ("得", "應", "不得", "須"))
    assert re.findall(r"제\d+조", ko) == ["제1조", "제2조", "제3조", "제4조", "제5조"]
    assert "하여야 한다" in ko and "할 수 있다" in ko and "아니 된다" in ko
    assert "第 2 頁，共 3 頁" in zh.splitlines()[-1]
    assert zh.splitlines()[0].startswith("翠湖社區管理委員會")


def test_legal_pages_are_long_and_all_different() -> None:
    pages = [p for lang in synth_text.LANGS for p in synth_text.LEGAL[lang]]
    texts = [squash("".join(p.paragraphs)) for p in pages]
    assert min(len(t) for t in texts) >= 200
    assert len(set(texts)) == len(texts)
    sentences = [s for p in pages for s in p.paragraphs]
    assert len(set(sentences)) == len(sentences)


def test_every_character_has_a_glyph() -> None:
    synth.register_fonts()
    texts: dict[str, list[str]] = {lang: [] for lang in synth_text.LANGS}
    for lang in synth_text.LANGS:
        texts[lang] += [s.title + "".join(s.bullets) for s in synth_text.SLIDES[lang]]
        texts[lang] += ["".join(p.paragraphs) + p.header for p in synth_text.LEGAL[lang]]
    for lang, line in synth_text.MIXED_PAGE:
        texts[lang].append(line)
    for name, parts in texts.items():
        face = pdfmetrics.getFont(LANG_FONT[name]).face
        chars = {ch for ch in "".join(parts) if not ch.isspace()}
        missing = {ch for ch in chars if ord(ch) not in face.charToGlyph}
        assert not missing, f"{name}: no glyph for {sorted(missing)}"


def test_two_column_truth_reads_column_one_then_two(fixtures: Fixtures) -> None:
    truth = fixtures.pages(fixtures.two_column_pdf)[0].text
    layer = text_layer(fixtures.two_column_pdf)[0]
    assert Counter(squash(layer)) == Counter(squash(truth))
    left_end = truth.index("paragraphs of the body.")
    assert left_end < truth.index("The right column continues")
    # The content stream interleaves the columns, so naive extraction gets the order wrong.
    assert squash(layer) != squash(truth)
    assert squash(layer).index("Therightcolumn") < squash(layer).index("paragraphsofthebody")


def test_table_and_figure_slide(fixtures: Fixtures) -> None:
    page = fixtures.pages(fixtures.deck_pdf)[3]
    assert image_objects(fixtures.deck_pdf) == [0, 0, 0, 1]
    assert page.tables_html[0].startswith('<table><tr><th rowspan="2">Office</th>')
    assert '<th colspan="3">Pages processed</th>' in page.tables_html[0]
    assert "Total 29,350 32,800 35,670" in page.text.splitlines()
    big = fixtures.pages(fixtures.table_pdf)[0]
    assert big.tables_html[0].count("<tr>") == 32


def test_dense_page_is_small_print(fixtures: Fixtures) -> None:
    text = fixtures.pages(fixtures.dense_pdf)[0].text
    assert len(text.splitlines()) >= 90
    document = pdfium.PdfDocument(fixtures.dense_pdf)
    textpage = document[0].get_textpage()
    sizes = [pdfium_c.FPDFText_GetFontSize(textpage, i) for i in range(200, 220)]
    assert all(6.0 <= size <= 7.0 for size in sizes)


def test_scans_are_image_only_at_200_dpi(fixtures: Fixtures) -> None:
    assert all(squash(t) == "" for t in text_layer(fixtures.scan_pdf))
    assert image_objects(fixtures.scan_pdf) == [1, 1, 1]
    assert all(squash(t) == "" for t in text_layer(fixtures.deck_scan_pdf))
    with Image.open(fixtures.scan_png) as png:
        assert png.size == (1654, 2339)
        assert png.mode == "L"
    document = pdfium.PdfDocument(fixtures.scan_pdf)
    assert [round(v) for v in document[0].get_size()] == [595, 842]


def test_degradation_levels_lower_psnr_in_order(fixtures: Fixtures) -> None:
    clean = render_pages(fixtures.legal_pdf, dpi=100)[1]
    scores = [
        psnr(clean, degrade(clean, level, seed=7), level.skew_deg) for level in LEVELS.values()
    ]
    assert scores[0] > scores[1] > scores[2]
    assert scores[2] > 15.0


def test_degrade_is_deterministic_and_bleeds_through(fixtures: Fixtures) -> None:
    front, back = render_pages(fixtures.legal_pdf, dpi=60)[:2]
    level = LEVELS["heavy"]
    a = degrade(front, level, seed=3, back=back)
    assert a.tobytes() == degrade(front, level, seed=3, back=back).tobytes()
    assert a.tobytes() != degrade(front, level, seed=3).tobytes()


def test_pptx_has_slides_with_notes(fixtures: Fixtures) -> None:
    deck = Presentation(str(fixtures.pptx))
    truth = fixtures.pages(fixtures.pptx)
    assert len(deck.slides) == len(truth) == 4
    for slide, page in zip(deck.slides, truth, strict=True):
        assert slide.has_notes_slide
        assert slide.notes_slide.notes_text_frame.text == page.notes != ""
        words = "".join(s.text_frame.text for s in slide.shapes if s.has_text_frame)
        assert squash(page.text.splitlines()[0]) in squash(words)
    table = next(s for s in deck.slides[3].shapes if s.has_table).table
    assert table.cell(0, 1).is_merge_origin and table.cell(0, 1).span_width == 3
    assert deck.slides[1].shapes.title.text == "年度文件數位化成果"


def test_bad_inputs(fixtures: Fixtures) -> None:
    for path in (fixtures.corrupt_pdf, fixtures.empty_pdf):
        with pytest.raises(pdfium.PdfiumError, match="Data format error"):
            pdfium.PdfDocument(path)
    assert fixtures.empty_pdf.stat().st_size == 0
    with pytest.raises(pdfium.PdfiumError, match="password"):
        pdfium.PdfDocument(fixtures.encrypted_pdf)
    assert "Confidential" in text_layer(fixtures.encrypted_pdf, password=fixtures.password)[0]
    assert fixtures.unsupported_file.suffix == ".xyz"
    assert fixtures.png_bomb.stat().st_size < 200_000
    header = fixtures.png_bomb.read_bytes()[:24]
    assert header[12:16] == b"IHDR" and struct.unpack(">II", header[16:24]) == (30000, 30000)
    with pytest.raises(Image.DecompressionBombError, match="900000000 pixels"):
        Image.open(fixtures.png_bomb)


def test_wrap_keeps_punctuation_off_line_starts() -> None:
    synth.register_fonts()
    lines = wrap("第二條　住戶使用公共設施，應遵守本規約，" * 4, "PR-Han", 12, 120, "zh-Hant")
    assert len(lines) > 3
    assert not any(line[0] in "，。；、" for line in lines)
    assert "".join(lines) == "第二條　住戶使用公共設施，應遵守本規約，" * 4


def test_missing_font_names_the_package() -> None:
    with pytest.raises(DependencyError, match=r"nowhere\.ttf") as caught:
        find_font("none/nowhere.ttf", "fonts-nowhere")
    assert caught.value.hint == "install it: apt-get install fonts-nowhere"


def test_make_evalset_writes_a_readable_manifest(tmp_path: Path) -> None:
    manifest = make_evalset(tmp_path / "set")
    entries = [json.loads(line) for line in manifest.read_text(encoding="utf-8").splitlines()]
    assert len(entries) == 6 * 2 * 4
    for entry in entries:
        assert (manifest.parent / entry["file"]).is_file()
        assert (manifest.parent / entry["reference"]).is_file()
    zh = next(e for e in entries if e["file"] == "legal-zh.scan-medium.pdf" and e["page"] == 2)
    assert zh["lang"] == "zh-Hant" and zh["critical"] == list(CRITICAL["zh-Hant"])
    reference = (manifest.parent / zh["reference"]).read_text(encoding="utf-8")
    assert "第六條" in reference and "第十條" in reference
    assert {e["lang"] for e in entries} == {"en", "zh-Hant", "ko"}
    assert all(squash(t) == "" for t in text_layer(manifest.parent / "slides-ko.scan-heavy.pdf"))
    cases = list(read_manifest(manifest.parent, "synth"))
    assert len(cases) == len(entries) and cases[0].reference
