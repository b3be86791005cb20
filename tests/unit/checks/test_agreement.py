from __future__ import annotations

from typing import Any

from pagereader.checks import Possible, Subject
from pagereader.checks.agreement import check_agreement, consistency
from pagereader.config.options import VerifyOptions

REFERENCE = (
    "Section 2.3 The Processor must notify the Controller within 48 hours after\n"
    "becoming aware of a personal data breach."
)
OPTIONS = VerifyOptions()


def _check(subject: Subject) -> list[Any]:
    return check_agreement(subject, OPTIONS.agreement_min, OPTIONS.agreement_min_ocr)


def test_markdown_styling_and_line_breaks_agree(judge: Any) -> None:
    answer = (
        "**Section 2.3** The Processor must notify the Controller within 48 hours after "
        "becoming aware of a personal data breach."
    )
    subject = Subject(text=answer, reference=REFERENCE, reference_source="textlayer")
    assert consistency(subject) == 1.0
    assert judge(subject, Possible(can_fallback=True)) == ([], "accept")


def test_a_hallucinated_paragraph_falls_back(judge: Any) -> None:
    answer = "The Processor should inform the Controller promptly of any security incident."
    subject = Subject(text=answer, engine="vlm", reference=REFERENCE, reference_source="textlayer")
    findings, action = judge(subject, Possible(can_fallback=True, can_escalate=True))
    agreement = next(f for f in findings if f.check == "agreement")
    assert agreement.message.startswith("character consistency 0.")
    assert agreement.message.endswith("with the textlayer is below 0.85 for a text block")
    assert action == "fallback"


def test_ocr_reference_uses_the_looser_threshold() -> None:
    ocr = REFERENCE.replace("Processor", "Proccssor").replace("breach", "brcach")
    subject = Subject(text=REFERENCE, reference=ocr, reference_source="ocr")
    assert _check(subject) == []
    half = Subject(text=REFERENCE[:60], reference=REFERENCE, reference_source="ocr")
    assert "below 0.70" in _check(half)[0].message


def test_figures_and_empty_references_are_not_compared() -> None:
    assert (
        _check(
            Subject(
                text="A bar chart of revenue",
                kind="figure",
                reference="Q1 Q2",
                reference_source="textlayer",
            )
        )
        == []
    )
    assert _check(Subject(text=REFERENCE, reference=" ", reference_source="ocr")) == []
