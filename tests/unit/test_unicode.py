"""Surrogates: pairs joined into their character, lone ones replaced and counted."""

from __future__ import annotations

from pagereader.types import PageResult
from pagereader.unicode import clean_model, clean_text


def test_pairs_are_joined_and_lone_surrogates_replaced() -> None:
    gothic = "\U00010330"
    high, low = "\ud800", "\udf30"
    assert clean_text(f"a{high}{low}b") == (f"a{gothic}b", 0)
    assert clean_text(f"a{high}b{low}") == ("a\ufffdb\ufffd", 2)
    assert clean_text(f"{gothic} plain \ufffd") == (f"{gothic} plain \ufffd", 0)


def test_a_model_with_surrogates_serializes_after_cleaning() -> None:
    page = PageResult(index=1, width=1, height=1, markdown="x\ud800", notes="\ud800\udf31")
    cleaned, lone = clean_model(page)
    assert lone == 1
    assert cleaned.markdown == "x\ufffd" and cleaned.notes == "\U00010331"
    assert "\\ud800" not in cleaned.model_dump_json()
    untouched = PageResult(index=2, width=1, height=1, markdown="fine")
    assert clean_model(untouched) == (untouched, 0)
