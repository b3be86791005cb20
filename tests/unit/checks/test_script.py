from __future__ import annotations

from typing import Any

from pagereader.checks import Possible, Subject
from pagereader.checks.script_mismatch import check_script

KO = (
    "제3조(관리비 납부) 입주자는 매월 25일까지 관리비를 납부하여야 한다. 다만, 부득이한 사유가\n"
    "있는 경우에는 관리주체와 협의하여 납부 기한을 연장할 수 있다."
)
ROMANIZED = (
    "Je3jo(gwallibi nabbu) ipjujaneun maewol 25ilkkaji gwallibireul nabbuhayeoya handa. "
    "Daman, budeugihan sayuga inneun gyeongueneun gwallijuchewa hyeopuihayeo nabbu gihaneul "
    "yeonjanghal su itda."
)


def test_korean_block_answered_in_romanization(judge: Any) -> None:
    subject = Subject(text=ROMANIZED, engine="vlm", reference=KO, reference_source="textlayer")
    findings, action = judge(subject, Possible(can_retry=True, can_fallback=True))
    assert [f.check for f in findings] == ["script"]
    assert findings[0].message == (
        "the answer is Latin where the textlayer is Hangul (Korean) "
        "(romanized or translated Korean)"
    )
    assert action == "fallback"


def test_romanization_on_a_scan_escalates(judge: Any) -> None:
    subject = Subject(text=ROMANIZED, engine="vlm", reference=KO, reference_source="ocr")
    assert judge(subject, Possible(can_retry=True, can_escalate=True))[1] == "escalate"


def test_without_reference_the_page_script_decides() -> None:
    assert check_script(Subject(text=ROMANIZED, page_script="hangul"))[0].check == "script"
    assert check_script(Subject(text=ROMANIZED, page_script="unknown")) == []


def test_latin_reference_answered_in_han() -> None:
    subject = Subject(
        text="處理者應僅依控制者之書面指示處理個人資料",
        reference="The Processor shall process personal data only on documented instructions",
        reference_source="textlayer",
    )
    assert "Han (Chinese) where the textlayer is Latin" in check_script(subject)[0].message


def test_mixed_blocks_pass() -> None:
    mixed = "제4조 입주자는 PDF 파일을 Email로 제출할 수 있다."
    assert check_script(Subject(text=mixed, reference=mixed, reference_source="ocr")) == []
    assert (
        check_script(Subject(text="Q3 2024", reference="2024년 3분기", reference_source="ocr"))
        == []
    )
