"""Han forms the embedded OCR writes on Traditional Chinese pages, mapped to Taiwan's standard
one character at a time with OpenCC's tables; Taiwan text, vocabulary, Latin and Hangul stay."""

from __future__ import annotations

import subprocess
from pathlib import Path

import opencc

from pagereader.text.variants import (
    BOTH_FORMS,
    reads_traditional,
    taiwan_form,
    to_taiwan_forms,
)

from shared_data import shared


def test_the_four_forms_the_ocr_writes_become_taiwan_standard() -> None:
    mapped = to_taiwan_forms("第 3 条 爲保障人民權益，内政部衆議")
    assert mapped.text == "第 3 條 為保障人民權益，內政部眾議"
    assert mapped.pairs == (("条", "條", 1), ("爲", "為", 1), ("内", "內", 1), ("衆", "眾", 1))
    assert to_taiwan_forms("内内条").pairs == (("内", "內", 2), ("条", "條", 1))


def test_taiwan_text_is_unchanged() -> None:
    for text in ("條為內眾", "鄰里長、皇后、干涉、台北、于姓、剩余", "第十五條之一", "性(性)"):
        assert to_taiwan_forms(text).text == text
        assert to_taiwan_forms(text).pairs == ()
    for stem in ("N0030001", "B0000001"):
        for page in (1, 2):
            statute = shared("eval", "real_legal", f"{stem}.p{page}.ref.txt").read_text("utf-8")
            assert to_taiwan_forms(statute).text == statute


def test_forms_change_never_words() -> None:
    # s2twp would write 軟體 and 滑鼠: a vocabulary change, not a misread form
    assert to_taiwan_forms("软件鼠标").text == "軟件鼠標"


def test_latin_hangul_and_digits_are_untouched() -> None:
    text = "Article 3 shall apply. 제3조(目的) 이 법은 2024년 1월 1일부터 시행한다."
    assert to_taiwan_forms(text).text == text
    assert to_taiwan_forms(text).pairs == ()


def test_a_character_of_both_forms_is_only_normalised_as_traditional() -> None:
    assert taiwan_form("里") == "里"  # s2tw would write 裡 (鄰里 -> 鄰裡)
    assert taiwan_form("后") == "后"  # s2tw would write 後
    assert taiwan_form("棱") == "稜"  # a Traditional variant: t2tw's Taiwan form


def test_both_forms_are_what_opencc_says(tmp_path: Path) -> None:
    """BOTH_FORMS is OpenCC's own table read again: the characters STCharacters lists among
    their own Traditional forms (the wheel's opencc_dict turns the table into text)."""
    share = Path(opencc.__file__).parent / "clib"
    tool = share / "bin" / "opencc_dict"
    table = share / "share" / "opencc" / "STCharacters.ocd2"
    text = tmp_path / "STCharacters.txt"
    subprocess.run(
        [str(tool), "-i", str(table), "-o", str(text), "-f", "ocd2", "-t", "text"],
        capture_output=True,
        check=True,
    )
    rows = [line.split("\t") for line in text.read_text("utf-8").splitlines() if "\t" in line]
    assert len(rows) > 3000
    assert frozenset(key for key, values in rows if key in values.split()) == BOTH_FORMS


def test_traditional_and_simplified_pages_are_told_apart() -> None:
    statute = shared("eval", "real_legal", "N0030001.p1.ref.txt").read_text("utf-8")
    assert reads_traditional([statute])
    # a Traditional page with the OCR's slips is still Traditional
    assert reads_traditional([statute.replace("條", "条", 3).replace("內", "内")])
    simplified = "第一条 为了保护民事主体的合法权益，调整民事关系，维护社会和经济秩序，制定本法。"
    assert not reads_traditional([simplified])
    assert not reads_traditional(["대한민국은 민주공화국이다.", "Article 1"])
