"""The decision layer, fed values: features in, decision out."""

from __future__ import annotations

from pagereader.config.options import ClassifyOptions
from pagereader.stages.classify import decide_page, small_font_share, text_layer_trusted
from pagereader.text.chars import count_scripts, script_of
from pagereader.types import PageDecision, PageFeatures, TextLine

OPTIONS = ClassifyOptions()


def _decide(features: PageFeatures, invisible: float = 0.0) -> tuple[PageDecision, bool]:
    trusted, why = text_layer_trusted(features, invisible, OPTIONS)
    return decide_page(features, trusted, why, OPTIONS), trusted


def test_good_text_layer_is_digital_with_normal_pixels() -> None:
    decision, trusted = _decide(PageFeatures(text_chars=1800, line_count=40, median_font_size=10))
    assert trusted
    assert decision.page_class == "digital"
    assert decision.max_pixels == OPTIONS.normal_max_pixels
    assert decision.min_pixels == OPTIONS.min_pixels
    assert any("1800 characters" in r for r in decision.reasons)


def test_slide_with_few_lines_gets_fewer_pixels() -> None:
    decision, _ = _decide(PageFeatures(text_chars=200, line_count=6, median_font_size=24))
    assert decision.page_class == "digital"
    assert decision.max_pixels == OPTIONS.sparse_max_pixels < OPTIONS.normal_max_pixels


def test_no_text_layer_is_scan() -> None:
    decision, trusted = _decide(PageFeatures(text_chars=0, line_count=30, image_fraction=1.0))
    assert not trusted
    assert decision.page_class == "scan"
    assert "no usable text layer" in decision.reasons[0]


def test_garbage_text_layer_is_scan() -> None:
    features = PageFeatures(text_chars=900, garbage_ratio=0.4, line_count=30)
    decision, trusted = _decide(features)
    assert not trusted
    assert decision.page_class == "scan"
    assert "garbage" in decision.reasons[0]


def test_invisible_ocr_layer_over_an_image_is_read_again() -> None:
    features = PageFeatures(text_chars=900, line_count=30, image_fraction=0.98)
    decision, trusted = _decide(features, invisible=1.0)
    assert not trusted
    assert decision.page_class == "scan"
    assert "invisible" in decision.reasons[0]


def test_small_print_is_dense_with_more_pixels() -> None:
    features = PageFeatures(
        text_chars=6000, line_count=90, median_font_size=6.5, small_font_share=0.9
    )
    decision, _ = _decide(features)
    assert decision.page_class == "dense"
    assert decision.max_pixels == OPTIONS.dense_max_pixels > OPTIONS.normal_max_pixels


def test_big_table_is_dense() -> None:
    features = PageFeatures(text_chars=900, line_count=40, median_font_size=9, table_fraction=0.55)
    decision, _ = _decide(features)
    assert decision.page_class == "dense"
    assert any("ruled tables cover 55%" in r for r in decision.reasons)


def test_small_font_share_weights_by_characters() -> None:
    lines = [
        TextLine(text="x" * 30, bbox=(0, 0, 1, 1), font_size=6.0),
        TextLine(text="y" * 10, bbox=(0, 0, 1, 1), font_size=12.0),
    ]
    assert small_font_share(lines, 7.5) == 0.75


def test_script_detection_by_letters() -> None:
    assert script_of(count_scripts(["第一條 本法所稱主管機關 Article 1"])) == "han"
    assert script_of(count_scripts(["제1조 이 법은 PDF 문서에 적용한다"])) == "hangul"
    assert script_of(count_scripts(["The quick brown fox, 2024."])) == "latin"
    assert script_of(count_scripts(["1234 5678"])) == "unknown"
