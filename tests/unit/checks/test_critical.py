from __future__ import annotations

from typing import Any

from pagereader.checks import Possible, Subject
from pagereader.checks.critical import (
    check_critical,
    compare_critical,
    critical_patterns,
    critical_tokens,
)

ZH = "第四條　住戶得預約使用多功能會議室，每戶每月以八小時為限；預約後不使用者，應於三日\n前取消。"
EN = (
    "Article 2 (Obligations of the Processor).\n"
    "Section 2.1 The Processor shall process personal data only on documented\n"
    "instructions from the Controller, including with regard to transfers."
)
KO = "제3조(관리비 납부) 입주자는 매월 25일까지 관리비를 납부하여야 한다."
PATTERNS = critical_patterns()


def _digital(answer: str, reference: str) -> Subject:
    return Subject(text=answer, engine="vlm", reference=reference, reference_source="textlayer")


def test_de_swapped_to_ying_falls_back_to_the_text_layer(judge: Any) -> None:
    swapped = ZH.replace("住戶得", "住戶應").replace("\n", "")
    findings, action = judge(_digital(swapped, ZH), Possible(can_retry=True, can_fallback=True))
    assert [f.check for f in findings] == ["critical"]
    assert findings[0].message == "critical tokens differ from the textlayer: 得->應"
    assert action == "fallback"


def test_de_swapped_on_a_scan_is_retried_with_more_pixels(judge: Any) -> None:
    swapped = ZH.replace("住戶得", "住戶應")
    subject = Subject(text=swapped, engine="vlm", reference=ZH, reference_source="ocr")
    findings, action = judge(subject, Possible(can_retry=True, can_escalate=True))
    assert findings[0].message == "critical tokens differ from the ocr: 得->應"
    assert action == "retry"


def test_dropped_article_number(judge: Any) -> None:
    dropped = EN.replace("Article 2 ", "")
    findings, action = judge(_digital(dropped, EN), Possible(can_fallback=True))
    assert findings[0].check == "critical"
    assert "-Article2" in findings[0].message
    assert action == "fallback"


def test_dropped_korean_article_and_changed_modal() -> None:
    answer = KO.replace("제3조", "").replace("하여야 한다", "할 수 있다")
    result = compare_critical(answer, KO, PATTERNS)
    assert not result.ok
    assert result.changes == ("-제3조", "하여야한다->할수있다")


def test_shall_swapped_to_may() -> None:
    findings = check_critical(_digital(EN.replace("shall", "may"), EN), PATTERNS)
    assert findings[0].message.endswith("shall->may")


def test_bu_de_is_one_token_and_numbers_are_not_double_counted() -> None:
    assert critical_tokens("住戶不得任意移動，第3條之1", PATTERNS) == ["不得", "第3條之1"]
    assert critical_tokens("Article 12 and Section 2.1 within 48 hours", PATTERNS) == [
        "Article12",
        "Section2.1",
        "48",
    ]


def test_full_width_digits_and_layout_do_not_matter(judge: Any) -> None:
    answer = "## 第四條\n\n" + ZH.replace("第四條　", "").replace("\n", "")
    findings, action = judge(_digital(answer, ZH), Possible(can_fallback=True))
    assert findings == []
    assert action == "accept"
    assert compare_critical("within ４８ hours", "within 48 hours", PATTERNS).ok


def test_patterns_are_configurable_per_language() -> None:
    custom = critical_patterns({"en": [r"\bwithin\s+\d+\s+hours\b"]})
    assert "Article" not in " ".join(custom)
    assert critical_tokens("Article 2: within 48 hours", custom) == ["2", "within48hours"]


def test_tables_compare_multisets() -> None:
    table = Subject(
        text="| A | 12 |\n|---|---|\n| B | 7 |",
        kind="table",
        reference="B 7 A 12",
        reference_source="textlayer",
    )
    assert check_critical(table, PATTERNS) == []
    changed = Subject(
        text="| A | 12 |\n|---|---|\n| B | 1 |",
        kind="table",
        reference="B 7 A 12",
        reference_source="textlayer",
    )
    assert check_critical(changed, PATTERNS)[0].message.endswith("-7, +1")


def test_article_numbers_with_a_hyphen_are_one_token() -> None:
    """law.moj.gov.tw numbers inserted articles ``第 30-1 條``: one token, not 30 and 1."""
    text = "第 30-1 條 中央主管機關指定之行業，雇主得依下列原則變更。"
    tokens = critical_tokens(text, PATTERNS)
    assert tokens[0] == "第30-1條"
    assert "30" not in tokens and "1" not in tokens


def test_an_article_number_without_its_space_is_the_same_token() -> None:
    """OCR sometimes drops the space ("Article3"): the number is still Article 3, not a plain
    3 beside a missing article."""
    answer = "Article3 (Sub-processors). The Processor may engage another processor."
    reference = "Article 3 (Sub-processors). The Processor may engage another processor."
    assert compare_critical(answer, reference, critical_patterns()).ok
    changed = "Article 4 (Sub-processors). The Processor may engage another processor."
    assert not compare_critical(answer, changed, critical_patterns()).ok


def test_an_article_number_wrapped_across_lines_is_one_token() -> None:
    """Print wraps Chinese anywhere, even inside 第三十六條: the reference's line break and the
    output's joined line read the same article."""
    reference = "使勞工於第三\n十六條所定休息日工作"
    answer = "使勞工於第三十六條所定休息日工作"
    assert critical_tokens(reference, PATTERNS) == critical_tokens(answer, PATTERNS)
    assert "第三十六條" in critical_tokens(reference, PATTERNS)


def test_korean_may_read_as_may_not_is_a_modal_change() -> None:
    """할 수 있다 ("may") and 할 수 없다 ("may not") differ in one syllable: the change is named
    as a modal change, not only as a modal word gone."""
    answer = KO.replace("하여야 한다", "할 수 없다")
    result = compare_critical(answer, KO, PATTERNS)
    assert result.changes == ("하여야한다->할수없다",)
