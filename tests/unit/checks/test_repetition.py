from __future__ import annotations

from typing import Any

from pagereader.checks import Possible, Subject
from pagereader.checks.repetition import check_repetition, compression_ratio, repeated_unit

ZH = "第四條　住戶得預約使用多功能會議室，每戶每月以八小時為限；預約後不使用者，應於三日\n前取消。"

# PaddleOCR-VL's loop (PaddleOCR #17772): a clause of the block repeated to the token limit.
LOOP = ZH.replace("\n", "") + "預約後不使用者，" * 40


def test_paddleocr_loop_is_caught_and_retried(judge: Any) -> None:
    subject = Subject(text=LOOP, engine="vlm")
    findings, action = judge(subject, Possible(can_retry=True, can_escalate=True))
    assert [f.check for f in findings] == ["repetition"]
    assert "'預約後不使用者,' repeats 40 times" in findings[0].message  # NFKC folds ，
    assert action == "retry"


def test_loop_without_retry_left_escalates_then_reviews(judge: Any) -> None:
    subject = Subject(text=LOOP, engine="vlm")
    assert judge(subject, Possible(can_escalate=True))[1] == "escalate"
    assert judge(subject, Possible())[1] == "review"


def test_repeated_line_run() -> None:
    text = "Quarterly revenue\n" + "Revenue grew in all regions.\n" * 6
    findings = check_repetition(Subject(text=text))
    assert findings[0].message == "the line 'Revenue grew in all regions.' repeats 6 times in a row"


def test_normal_text_and_leader_dots_pass() -> None:
    toc = "Contents\n1 Introduction ............ 3\n2 Methods ................. 7"
    assert check_repetition(Subject(text=toc)) == []
    assert check_repetition(Subject(text=ZH)) == []
    assert repeated_unit("ha ha ha", 40) is None


def test_a_repetition_the_reference_shares_is_not_a_fault() -> None:
    chant = "Yes we can! " * 8
    assert check_repetition(Subject(text=chant)) != []
    assert check_repetition(Subject(text=chant, reference=chant, reference_source="ocr")) == []


def test_compression_ratio_against_reference() -> None:
    ref = (
        "The Processor shall ensure that persons authorised to process the data have "
        "committed themselves to confidentiality or are under an appropriate statutory "
        "obligation of confidentiality. Taking into account the state of the art, the costs "
        "of implementation and the nature, scope, context and purposes of processing."
    )
    looping = ref[:120] + " ".join(["confidentiality of the processing"] * 4 + ["data"] * 60)
    assert compression_ratio(ref) < 2.5
    findings = check_repetition(Subject(text=looping, reference=ref, reference_source="textlayer"))
    assert findings and findings[0].check == "repetition"
