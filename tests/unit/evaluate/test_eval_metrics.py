"""Metrics on hand-checked values."""

from __future__ import annotations

import pytest

from pagereader.evaluate.metrics import (
    cer,
    char_consistency,
    critical_agreement,
    critical_patterns,
    critical_tokens,
    normalize,
    page_teds,
    teds,
    wer,
)
from pagereader.text.chars import strip_markdown


def test_chinese_one_character_changed_is_one_edit_in_four() -> None:
    hyp, ref = normalize("第一條得"), normalize("第一條應")
    assert char_consistency(hyp, ref) == pytest.approx(0.75)
    assert cer(hyp, ref) == pytest.approx(0.25)


def test_consistency_divides_by_the_longer_side_and_cer_by_the_reference() -> None:
    # "abcd" -> "ab": two deletions
    assert char_consistency("ab", "abcd") == pytest.approx(0.5)
    assert cer("ab", "abcd") == pytest.approx(0.5)
    # an invented tail: 4 insertions over a 2-character reference
    assert cer("abcdef", "ab") == pytest.approx(2.0)
    assert char_consistency("abcdef", "ab") == pytest.approx(2 / 6)
    assert char_consistency("", "") == 1.0
    assert cer("", "") == 0.0
    assert cer("x", "") == 1.0


def test_normalize_folds_width_whitespace_and_variants() -> None:
    assert normalize("第 一 條\n（甲）ＡＢ１") == "第一條(甲)AB1"
    assert normalize("爲裏着") == "為裡著"
    assert normalize("爲裏着", fold_variants=False) == "爲裏着"
    assert normalize("a  b\n c", keep_spaces=True) == "a b c"


def test_markdown_stripping_keeps_text_only() -> None:
    md = "# 標題\n\n**粗體** and *it* [link](http://x)\n\n| a | b |\n|---|---|\n| 1 | 2 |"
    assert normalize(md, markdown=True) == "標題粗體anditlinkab12"
    assert strip_markdown("<b>x</b><br/>y").split() == ["x", "y"]


def test_wer_counts_words() -> None:
    assert wer("the cat sat", "the cat sat down") == pytest.approx(0.25)
    assert wer("the dog sat down", "the cat sat down") == pytest.approx(0.25)
    assert wer("", "") == 0.0


def test_critical_tokens_take_longest_modal_and_whole_article_numbers() -> None:
    patterns = critical_patterns("zh-Hant")
    text = "第十二條 人民不得違反。第十三條 得申請 3 次"
    assert critical_tokens(text, patterns) == ["第十二條", "不得", "第十三條", "得", "3"]


def test_critical_agreement_catches_modal_swap() -> None:
    result = critical_agreement("第一條得", "第一條應", critical_patterns("zh-Hant"))
    assert not result.ok
    assert result.changes == ("應->得",)
    assert result.score == pytest.approx(0.5)


def test_critical_agreement_catches_dropped_article_number() -> None:
    ref = "第一條 人民不得違反。第二條 主管機關應公告。"
    hyp = "第一條 人民不得違反。主管機關應公告。"
    result = critical_agreement(hyp, ref, critical_patterns("zh-Hant"))
    assert not result.ok
    assert result.changes == ("-第二條",)
    assert critical_agreement(ref, ref, critical_patterns("zh-Hant")).ok


def test_critical_defaults_for_english_and_korean() -> None:
    en = critical_tokens("Article 5 shall not apply; Section 2.1 may", critical_patterns("en"))
    assert en == ["Article5", "shallnot", "Section2.1", "may"]
    ko = critical_tokens("제 3 조 신청인은 하여야 한다", critical_patterns("ko"))
    assert ko == ["제3조", "하여야한다"]
    custom = critical_tokens("Rule 7 and Rule 8", critical_patterns("en", [r"Rule \d+"]))
    assert custom == ["Rule7", "Rule8"]


def test_teds_identical_changed_and_missing_cell() -> None:
    ref = "<table><tr><td>a</td><td>b</td></tr></table>"
    assert teds(ref, ref) == pytest.approx(1.0)
    # 4 nodes (table, tr, td, td); one cell's text differs completely: cost 1
    assert teds("<table><tr><td>a</td><td>c</td></tr></table>", ref) == pytest.approx(0.75)
    # one cell deleted: cost 1 over max(3, 4) nodes
    assert teds("<table><tr><td>a</td></tr></table>", ref) == pytest.approx(0.75)
    # half a cell's text wrong: cost 0.5
    ab = "<table><tr><td>a</td><td>bc</td></tr></table>"
    assert teds("<table><tr><td>a</td><td>bx</td></tr></table>", ab) == pytest.approx(0.875)
    assert teds("no table here", ref) == 0.0


def test_teds_counts_spans_as_structure() -> None:
    ref = "<table><tr><td colspan='2'>h</td></tr><tr><td>1</td><td>2</td></tr></table>"
    hyp = "<table><tr><td>h</td></tr><tr><td>1</td><td>2</td></tr></table>"
    # 6 nodes each; the span differs, so renaming the header cell costs 1
    assert teds(hyp, ref) == pytest.approx(1 - 1 / 6)
    assert teds(hyp, ref, structure_only=True) == pytest.approx(1 - 1 / 6)


def test_page_teds_reads_markdown_tables_against_html() -> None:
    ref = "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>"
    assert page_teds("| a | b |\n|---|---|\n| 1 | 2 |", ref) == pytest.approx(1.0)
    assert page_teds("no table", ref) == 0.0
    assert page_teds("anything", "plain reference") is None


def test_page_teds_pairs_tables_in_reading_order() -> None:
    md = "| a | b |\n|---|---|\n| 1 | 2 |"
    html = "<table><tr><td>x</td></tr><tr><td>y</td></tr></table>"
    # the reference has its pipe table first; an answer in the same order matches both
    assert page_teds(f"{md}\n\n{html}", f"{md}\n\n{html}") == pytest.approx(1.0)
    # in the other order each table meets a differently shaped one
    reversed_score = page_teds(f"{html}\n\n{md}", f"{md}\n\n{html}")
    assert reversed_score is not None and reversed_score < 0.7
