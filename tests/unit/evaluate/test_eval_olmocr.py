"""The olmOCR-bench scorer on hand-made rules, and on the sample's own reference outputs."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagereader.evaluate.olmocr import (
    OlmoRule,
    candidate_paths,
    check_rule,
    load_rules,
    normalize_latex,
    normalize_text,
    tail_repeats,
)

from shared_data import shared


def rule(**fields: object) -> OlmoRule:
    return OlmoRule.model_validate({"pdf": "x.pdf", "page": 1, "id": "t", **fields})


def test_normalize_text_drops_markup_and_folds_punctuation() -> None:
    assert normalize_text("**Bold**  and _it_<br>“q” – x µm") == 'Bold and it "q" - x μm'


def test_present_and_absent_with_max_diffs_case_and_window() -> None:
    page = "Intro text.\n\nThe **quick** brown fox.\n\nPage 12"
    assert check_rule(rule(type="present", text="quick brown fox"), page).passed
    assert not check_rule(rule(type="present", text="quick brawn fox"), page).passed
    # partial_ratio counts a substitution as two edits (insert + delete)
    assert check_rule(rule(type="present", text="quick brawn fox", max_diffs=2), page).passed
    assert not check_rule(rule(type="present", text="QUICK brown"), page).passed
    assert check_rule(rule(type="present", text="QUICK brown", case_sensitive=False), page).passed
    assert not check_rule(rule(type="absent", text="Page 12", last_n=20), page).passed
    assert check_rule(rule(type="absent", text="Page 12", first_n=10), page).passed
    # a near-empty page contains nothing, so absent passes and present fails
    assert check_rule(rule(type="absent", text="a long header"), " ").passed
    assert not check_rule(rule(type="present", text="a long header"), " ").passed


def test_order_rule() -> None:
    page = "First heading\n\nbody one\n\nSecond part"
    assert check_rule(rule(type="order", before="First heading", after="Second part"), page).passed
    result = check_rule(rule(type="order", before="Second part", after="First heading"), page)
    assert not result.passed and "wrong order" in result.reason
    fuzzy = rule(type="order", before="Frist heading", after="Second part", max_diffs=2)
    assert check_rule(fuzzy, page).passed


MD_TABLE = """| Source | Words | Bytes |
|---|---|---|
| arXiv | 3.32T | 21.32T |
| Wiki | 11.8B | 3.7B |
"""

HTML_TABLE = """<table>
<thead><tr><th rowspan="2">Item</th><th colspan="2">Year Ended</th></tr>
<tr><th>2024</th><th>2023</th></tr></thead>
<tr><td>R&amp;D</td><td>1,136</td><td>876</td></tr>
<tr><td>Total</td><td>4,737</td><td>3,549</td></tr>
</table>"""


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"cell": "3.32T", "left": "arXiv"}, True),
        ({"cell": "3.32T", "right": "21.32T"}, True),
        ({"cell": "11.8B", "up": "3.32T"}, True),
        ({"cell": "3.32T", "down": "11.8B"}, True),
        ({"cell": "3.32T", "top_heading": "Words"}, True),
        ({"cell": "3.7B", "left_heading": "Wiki"}, True),
        ({"cell": "3.32T", "top_heading": "Bytes"}, False),
        ({"cell": "3.32T", "right": "3.7B"}, False),
        ({"cell": "nowhere"}, False),
    ],
)
def test_table_rule_on_markdown(fields: dict[str, str], expected: bool) -> None:
    assert check_rule(rule(type="table", **fields), MD_TABLE).passed is expected


def test_table_rule_respects_html_spans_and_header_rows() -> None:
    page = "Some text\n" + HTML_TABLE
    assert check_rule(rule(type="table", cell="1,136", top_heading="Year Ended"), page).passed
    assert check_rule(rule(type="table", cell="1,136", top_heading="2024"), page).passed
    assert check_rule(rule(type="table", cell="876", up="2023"), page).passed
    assert check_rule(rule(type="table", cell="2024", up="Year Ended"), page).passed
    assert check_rule(rule(type="table", cell="4,737", left_heading="Total"), page).passed
    assert not check_rule(rule(type="table", cell="876", left="4,737"), page).passed
    only_html = rule(type="table", cell="3.32T", ignore_markdown_tables=True)
    assert not check_rule(only_html, MD_TABLE).passed
    assert check_rule(rule(type="table", cell="x"), "no tables").reason == "no tables found"


def test_math_rule_exact_and_normalized() -> None:
    page = r"Euler: $e^{i \pi}+1=0$ and \[ \frac{a}{b} \le \left( x^{2} \right) \]"
    assert check_rule(rule(type="math", math=r"e^{i \pi}+1=0"), page).passed
    assert check_rule(rule(type="math", math=r"\dfrac{a}{b}\leq(x^2)"), page).passed
    assert not check_rule(rule(type="math", math=r"\frac{a}{c}"), page).passed
    assert normalize_latex(r"\lambda_{g^{\prime}}") == normalize_latex(r"\lambda_{g'}")
    assert normalize_latex(r"\partial t") != normalize_latex(r"\partialt")


def test_baseline_rule() -> None:
    assert check_rule(rule(type="baseline"), "Hello world").passed
    assert not check_rule(rule(type="baseline"), "  \n ").passed
    assert not check_rule(rule(type="baseline"), "text " + "ab" * 40).passed
    assert not check_rule(rule(type="baseline"), "Hello 世界").passed
    assert check_rule(rule(type="baseline", check_disallowed_characters=False), "Hi 世界").passed
    assert check_rule(rule(type="baseline", max_length=10), "p. 3").passed
    assert not check_rule(rule(type="baseline", max_length=3), "page 3").passed
    assert tail_repeats("xabab", 2) == [1, 2]


def test_load_rules_names_the_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"pdf": "a.pdf", "id": "1", "type": "present", "text": "x"}\n\n{"pdf": 1}\n')
    with pytest.raises(Exception, match="line 3"):
        load_rules(path)


def test_reference_outputs_pass_rate_per_type() -> None:
    bench = shared("eval", "olmocr_bench_sample")
    rules = load_rules(bench / "dataset.jsonl")
    candidates = bench / "reference_outputs" / "olmocr_pipeline"
    passed: dict[str, list[bool]] = {}
    for r in rules:
        paths = candidate_paths(candidates, r.pdf, r.page)
        text = paths[0].read_text(encoding="utf-8") if paths else ""
        passed.setdefault(r.type, []).append(check_rule(r, text).passed)
    counts = {k: (sum(v), len(v)) for k, v in passed.items()}
    assert counts == {
        "present": (24, 30),
        "absent": (23, 24),
        "order": (12, 13),
        "table": (17, 20),
        "math": (10, 12),
    }
