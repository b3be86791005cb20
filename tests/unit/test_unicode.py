"""Surrogates: pairs joined into their character, lone ones replaced and counted. Control
characters, noncharacters and unpaired bidi controls removed and named."""

from __future__ import annotations

from pagereader.text.unicode import (
    CORRECTION_TEXT,
    clean_model,
    clean_result,
    clean_text,
    strip_controls,
)
from pagereader.types import PageResult


def test_pairs_are_joined_and_lone_surrogates_replaced() -> None:
    gothic = "\U00010330"
    high, low = "\ud800", "\udf30"
    assert clean_text(f"a{high}{low}b") == (f"a{gothic}b", 0)
    assert clean_text(f"a{high}b{low}") == ("a\ufffdb\ufffd", 2)
    assert clean_text(f"{gothic} plain \ufffd") == (f"{gothic} plain \ufffd", 0)


def test_a_model_with_surrogates_serializes_after_cleaning() -> None:
    page = PageResult(index=1, width=1, height=1, markdown="x\ud800", notes="\ud800\udf31")
    cleaned, cleaning = clean_model(page)
    assert cleaning.lone_surrogates == 1 and not cleaning.removed
    assert cleaned.markdown == "x\ufffd" and cleaned.notes == "\U00010331"
    assert "\\ud800" not in cleaned.model_dump_json()
    assert cleaning.notes() == (
        "lone surrogate code points in the text (a broken text layer) replaced with U+FFFD",
    )
    untouched = PageResult(index=2, width=1, height=1, markdown="fine")
    same, nothing = clean_model(untouched)
    assert same is untouched and nothing.notes() == ()


def test_controls_and_noncharacters_are_removed_tab_and_line_ends_kept() -> None:
    text, removed = strip_controls("a\x00b\x02c\ufffed\uffff\x85e\U0010ffff\tf\r\ng\x7f")
    assert text == "abcde\tf\r\ng"
    assert {f"U+{ord(c):04X}": n for c, n in removed.items()} == {
        "U+0000": 1,
        "U+0002": 1,
        "U+FFFE": 1,
        "U+FFFF": 1,
        "U+0085": 1,
        "U+10FFFF": 1,
        "U+007F": 1,
    }


def test_bidi_controls_are_kept_only_when_the_line_closes_them() -> None:
    rlo, pdf, rli, pdi, rlm = "\u202e", "\u202c", "\u2067", "\u2069", "\u200f"
    paired = f"name {rli}שלום{pdi} and {rlo}abc{pdf}{rlm}"
    assert strip_controls(paired) == (paired, {})
    text, removed = strip_controls(f"pay {rlo}001 USD\nnext {pdf}line {rli}x")
    assert text == "pay 001 USD\nnext line x"
    assert removed == {rlo: 1, pdf: 1, rli: 1}
    # an opener closed on a later line is unpaired on both
    assert strip_controls(f"{rlo}a\nb{pdf}")[0] == "a\nb"
    # nested: the inner pair closes, the outer opener does not
    assert strip_controls(f"{rli}a{rlo}b{pdf}c")[0] == f"a{rlo}b{pdf}c"


def test_a_model_names_what_was_removed() -> None:
    page = PageResult(index=1, width=1, height=1, markdown="a\x00b\u202ec", notes="\x00")
    cleaned, cleaning = clean_model(page)
    assert cleaned.markdown == "abc" and cleaned.notes == ""
    [note] = cleaning.notes()
    assert note.startswith("control or format characters removed from the text ")
    assert "(U+0000, U+202E)" in note


def test_a_result_says_where_the_removed_characters_came_from() -> None:
    page = PageResult(index=1, width=1, height=1, markdown="ok \u202eno", warnings=("kept",))
    cleaned, notes = clean_result(page, CORRECTION_TEXT)
    assert cleaned.markdown == "ok no"
    assert cleaned.warnings == ("kept", *notes)
    assert notes == (
        "control or format characters removed from the text (U+202E): a reviewer's correction",
    )
    untouched = PageResult(index=2, width=1, height=1, markdown="fine")
    assert clean_result(untouched) == (untouched, ())
