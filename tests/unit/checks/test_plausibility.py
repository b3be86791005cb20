"""The plausibility check: real text passes, what no language writes is flagged."""

from __future__ import annotations

from pagereader.checks import run_checks
from pagereader.checks.base import Subject
from pagereader.checks.plausibility import (
    check_plausibility,
    han_dominance,
    odd_latin_words,
    page_findings,
    symbol_share,
)

ZH = (
    "第十五條之一 對於因精神障礙或其他心智缺陷，致其為意思表示或受意思表示之能力顯有不足者，"
    "法院得因聲請為輔助之宣告。"
)
KO = "모든 국민은 거주·이전의 자유를 가진다. 모든 국민은 직업선택의 자유를 가진다."
EN = "Docling bundles PDF document conversion to JSON and Markdown in an easy self contained kit"


def test_real_text_passes_in_its_own_script() -> None:
    for text, script in ((ZH, "han"), (KO, "hangul"), (EN, "latin")):
        subject = Subject(text=text, engine="ocr", confidence=0.93, decision_script=script)
        assert check_plausibility(subject) == []


def test_low_confidence_is_flagged() -> None:
    findings = check_plausibility(Subject(text=ZH, engine="rapidocr", confidence=0.41))
    assert [f.check for f in findings] == ["plausibility"]
    assert "0.41" in findings[0].message


def test_latin_answer_on_a_korean_page_is_flagged() -> None:
    gibberish = "Mee Sa hh gt ne ORCAS Me re Peon ele RES Le ee Le AP"
    subject = Subject(text=gibberish, engine="tesseract", confidence=0.7, decision_script="hangul")
    messages = [f.message for f in check_plausibility(subject)]
    assert any("Latin" in m and "Hangul" in m for m in messages)


def test_upside_down_chinese_reading_is_not_a_language() -> None:
    # what PP-OCR reads from a Chinese statute turned half a turn
    upside_down = "-一排一提胡。出一一护一一。一司使灵护梁一一"
    assert han_dominance(upside_down) > 0.25
    assert han_dominance(ZH) < 0.1
    assert check_plausibility(Subject(text=upside_down, engine="rapidocr", confidence=0.9))


def test_odd_latin_words_and_symbols() -> None:
    assert odd_latin_words(EN) == 0.0
    assert odd_latin_words("Ngr tHe sbrt fLoP xkcd mnTs") >= 0.8
    assert symbol_share(EN) == 0.0
    assert symbol_share("@#$ %^& *~| <>= +@# $%^") > 0.9


def test_exact_sources_and_figures_are_not_judged() -> None:
    noise = "@#$ %^& *~| <>= +@# $%^"
    assert check_plausibility(Subject(text=noise, engine="textlayer", confidence=0.1)) == []
    assert check_plausibility(Subject(text=noise, kind="figure", confidence=0.1)) == []


def test_suite_runs_it() -> None:
    findings = run_checks(Subject(text=ZH, engine="ocr", confidence=0.3, decision_script="han"))
    assert "plausibility" in {f.check for f in findings}


def test_page_mostly_unread_is_flagged() -> None:
    # a Korean page read by an engine without Hangul: circled numbers and specks survive
    texts = ["①", "②", "③难12圣", "110至"]
    findings = page_findings(texts, [0.95, 0.99, 0.78, 0.66], line_count=30, script="han")
    assert any("30 text lines" in f.message for f in findings)


def test_page_read_well_passes() -> None:
    findings = page_findings([ZH, ZH[:20]], [0.98, 0.97], line_count=3, script="han")
    assert findings == []


def test_page_confidence_is_weighted_by_text() -> None:
    texts = [ZH, "第一條"]
    assert page_findings(texts, [0.45, 0.99], line_count=2, script="han")
    assert not page_findings(texts, [0.95, 0.2], line_count=2, script="han")


def test_confidently_read_text_of_another_script_is_real() -> None:
    """Pages mix English and Chinese: a Chinese block read at 0.97 on a page whose sampled
    lines were English is no sign of a wrong turn, while the same text read at 0.5 is."""
    chinese = "本會議紀錄記載數位化工作小組之決議事項及後續辦理情形"
    sure = Subject(text=chinese, engine="rapidocr", decision_script="latin", confidence=0.97)
    unsure = Subject(text=chinese, engine="rapidocr", decision_script="latin", confidence=0.5)
    assert not [f for f in check_plausibility(sure) if "decision layer" in f.message]
    assert [f for f in check_plausibility(unsure) if "decision layer" in f.message]
