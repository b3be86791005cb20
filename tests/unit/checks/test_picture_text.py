"""What OCR read inside a picture is printed only when it reads like the document's text."""

from __future__ import annotations

import pytest

from pagereader.checks.picture_text import check_picture_text, number_share


@pytest.mark.parametrize(
    ("text", "share"),
    [
        ("250 200 150 2011 2010-2011 100 2009-2010 2008-2009 50", 1.0),
        ("Sales 10% 20% 30% 40%", 0.8),
        ("Since 1990", 0.0),
        ("Q1 Q2 Q3 2020", 0.0),
        ("Revenue rose 12.5% to $1,200 in 2020 and 2021", 4 / 9),
    ],
)
def test_number_share(text: str, share: float) -> None:
    assert number_share(text) == pytest.approx(share)


def test_a_charts_ticks_are_not_printed() -> None:
    """A chart picture on a slide: OCR reads its axis ticks and legend as one row of numbers."""
    findings = check_picture_text("250 200 150 2011 2010-2011 100 2009-2010 50", 0.95, "latin")
    assert [f.check for f in findings] == ["picture"]
    assert "numbers" in findings[0].message and findings[0].severity == "warn"


def test_a_diagrams_labels_are_printed() -> None:
    text = "Client sends request to Gateway, Gateway forwards to Service 2"
    assert check_picture_text(text, 0.95, "latin") == []


def test_a_poster_read_at_middling_confidence_is_not_printed() -> None:
    """A cartoon poster's ornamental letters: real words among misreads, at 0.85 on average."""
    text = "& OTHER AN INCREDILE CDNCECRON AND MCST ENTTRGAINING CARTCONS ENR"
    findings = check_picture_text(text, 0.853, "latin")
    assert [f.severity for f in findings] == ["warn"]
    assert "confidence 0.85" in findings[0].message
    assert check_picture_text("& OTHER WEIRD CARTOONS", 0.95, "latin") == []
