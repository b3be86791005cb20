from __future__ import annotations

from typing import Any

from pagereader.checks import Possible, Subject
from pagereader.checks.empty import check_empty
from pagereader.checks.truncation import check_truncation

TEXT = (
    "Article 3 (Sub-processors). The Processor may engage another processor only\n"
    "with the prior written consent of the Controller and shall not move data outside"
)


def test_empty_answer_is_retried_then_falls_back(judge: Any) -> None:
    subject = Subject(text="  \n", engine="vlm", reference=TEXT, reference_source="textlayer")
    findings, action = judge(subject, Possible(can_retry=True, can_fallback=True))
    assert findings[0].message == "the answer is empty while the textlayer reads text here"
    assert action == "retry"
    assert judge(subject, Possible(can_fallback=True))[1] == "fallback"


def test_blank_block_and_figure_may_be_empty() -> None:
    assert check_empty(Subject(text="", reference="", reference_source="textlayer")) == []
    assert check_empty(Subject(text="", kind="figure")) == []
    assert check_empty(Subject(text="", kind="title"))[0].severity == "error"


def test_truncated_answer_is_retried(judge: Any) -> None:
    subject = Subject(text=TEXT[:90], engine="vlm", finish_reason="length")
    findings, action = judge(subject, Possible(can_retry=True, can_escalate=True))
    assert findings[0].check == "truncation"
    assert findings[0].message.endswith("ends with 'ge another processor only with the prior'")
    assert action == "retry"


def test_stop_is_fine() -> None:
    assert check_truncation(Subject(text=TEXT, finish_reason="stop")) == []
