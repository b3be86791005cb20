from __future__ import annotations

from typing import Any

from pagereader.checks import Possible, Subject
from pagereader.checks.reasoning import check_reasoning

TEXT = "Article 3 (Sub-processors). The Processor may engage another processor only"


def test_think_leak_is_retried(judge: Any) -> None:
    leaked = "<think>\nThe user wants the text of this block. I see a heading.\n" + TEXT
    findings, action = judge(Subject(text=leaked, engine="vlm"), Possible(can_retry=True))
    assert findings[0].check == "reasoning"
    assert findings[0].message == "reasoning leaked into the answer: '<think>'"
    assert action == "retry"


def test_let_me_think_preamble(judge: Any) -> None:
    leaked = "Okay, let me think about what this image shows. It reads:\n\n" + TEXT
    findings, action = judge(Subject(text=leaked, engine="vlm"), Possible(can_escalate=True))
    assert "let me think" in findings[0].message
    assert action == "escalate"


def test_chinese_preamble() -> None:
    leaked = "好的，我需要識別圖片中的文字。第一條　本規約依公寓大廈管理條例訂定之"
    assert check_reasoning(Subject(text=leaked))[0].check == "reasoning"


def test_clean_text_and_a_page_that_says_it_pass() -> None:
    assert check_reasoning(Subject(text=TEXT)) == []
    quote = "Let me think about it, said the Controller."
    assert check_reasoning(Subject(text=quote, reference=quote, reference_source="ocr")) == []
    assert check_reasoning(Subject(text=quote)) != []
