"""Normalization, scripts and character classes: the one definition the verifier, the
evaluation and the layout share."""

from __future__ import annotations

import pytest

from pagereader.text.chars import (
    count_scripts,
    dominant_script,
    is_cjk,
    is_latin_letter,
    normalize,
    opens_article_heading,
    script_of,
)


def test_normalize_for_comparison_only() -> None:
    assert normalize("**第 一 條**\n（甲）爲") == "第一條(甲)為"
    assert normalize("**a**", markdown=False) == "**a**"
    assert normalize("爲", fold_variants=False) == "爲"
    assert normalize(" a \n b ", keep_spaces=True) == "a b"
    # a line break inside a Han word is where the print wrapped; Hangul keeps its spaces
    assert normalize("於第三\n十六條 所定 第 12 條", keep_spaces=True) == "於第三十六條所定第 12 條"
    assert normalize("𠀀\n𠀁 제 3 조\n한다", keep_spaces=True) == "𠀀𠀁 제 3 조 한다"


def test_character_classes() -> None:
    assert [is_cjk(ch) for ch in "中かカ。，Ａ한a𠀀"] == [
        True,  # Han
        True,  # hiragana
        True,  # katakana
        True,  # ideographic full stop
        True,  # full-width comma
        True,  # full-width Latin letter (full-width forms)
        False,  # Hangul puts spaces between words
        False,
        True,  # CJK extension B
    ]
    assert is_cjk("") is False
    assert [is_latin_letter(ch) for ch in "aé中1"] == [True, True, False, False]


def test_script_rule_counts_letters() -> None:
    assert count_scripts(["제1조 Article 第一條 𠀀"]) == {"hangul": 2, "han": 4, "latin": 7}
    # 3 Han of 20 letters is 15%: Han wins although Latin has the majority
    assert script_of({"hangul": 0, "han": 3, "latin": 17}) == "han"
    assert script_of({"hangul": 0, "han": 2, "latin": 17}) == "latin"
    assert script_of({"hangul": 2, "han": 2, "latin": 2}) == "mixed"
    assert script_of({"hangul": 0, "han": 0, "latin": 2}) == "unknown"
    assert script_of({"hangul": 0, "han": 0, "latin": 2}, min_letters=1) == "latin"
    assert dominant_script("제1조 이 법은", min_letters=6) == "unknown"
    assert dominant_script("제1조 이 법은 문서에") == "hangul"


@pytest.mark.parametrize(
    ("line", "heading"),
    [
        ("제3조의2", True),
        ("제3조 의2( 정의) 이 법에서 사용하는 용어의 뜻은 다음과 같다.", True),
        ("제4조 (신고) 사용자는 사업장을 옮긴 때에는", True),
        ("第三十二條之一（定義）", True),
        ("第 12 條", True),
        ("제3조의2에 따라 신고한 자는", False),
        ("제4조(신고)에 따른 신고를 한 때에는", False),
        ("第三條規定之事項", False),
        ("Article 5", False),
    ],
)
def test_an_article_heading_line_is_told_from_a_wrapped_reference(line: str, heading: bool) -> None:
    assert opens_article_heading(line) is heading
