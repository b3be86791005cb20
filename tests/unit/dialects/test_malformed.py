"""Answers broken the ways real ones break, each repair named; garbage is not parsed and the raw
answer is kept; coordinates land on the page by each convention."""

from __future__ import annotations

import json
import re

import pytest

from pagereader.engines.dialects import PARSERS, PROMPTS, SCALES, Frame, parse_answer
from pagereader.errors import ConfigError

PAGE = Frame(page_width=600, page_height=800, input_width=1200, input_height=1600)

DOTS_CELLS = [
    {"bbox": [100, 100, 1100, 160], "category": "Title", "text": "# Annual Report"},
    {"bbox": [100, 200, 1100, 400], "category": "Text", "text": "Revenue grew by 12 percent."},
    {
        "bbox": [100, 420, 1100, 700],
        "category": "Table",
        "text": (
            "<table><tr><td>Year</td><td>Sales</td></tr><tr><td>2024</td><td>12</td></tr></table>"
        ),
    },
    {"bbox": [100, 720, 1100, 780], "category": "Formula", "text": "$$E = mc^2$$"},
    {"bbox": [560, 1540, 640, 1580], "category": "Page-footer", "text": "7"},
]


def dots_answer() -> str:
    return json.dumps(DOTS_CELLS, ensure_ascii=False)


def test_a_fenced_dots_answer_is_read_and_the_fence_named() -> None:
    answer = parse_answer("dots-ocr", f"```json\n{dots_answer()}\n```", PAGE)
    assert answer.parsed and answer.repairs == {"code-fence"}
    kinds = [b.kind for b in answer.blocks]
    assert kinds == ["title", "text", "table", "formula", "footer"]
    title, _, table, formula, number = answer.blocks
    assert (title.text, title.level) == ("Annual Report", 1)
    assert table.table is not None and (table.table.rows, table.table.cols) == (2, 2)
    assert table.text == "| Year | Sales |\n| --- | --- |\n| 2024 | 12 |"
    assert formula.text == "E = mc^2"
    assert number.bbox == pytest.approx((280, 770, 320, 790))


def test_an_answer_cut_at_the_token_limit_keeps_its_whole_cells() -> None:
    text = dots_answer()
    cut = text[: text.index("Revenue grew") + 7]  # inside the second cell's text
    answer = parse_answer("dots-ocr", cut, PAGE, finish_reason="length")
    assert answer.parsed and answer.truncated
    assert answer.repairs == {"unclosed-list", "incomplete-element", "cut-at-length"}
    assert [b.text for b in answer.blocks] == ["Annual Report"]


def test_without_finish_reason_length_nothing_is_called_cut() -> None:
    answer = parse_answer("dots-ocr", dots_answer(), PAGE, finish_reason="stop")
    assert not answer.truncated and not answer.warnings


@pytest.mark.parametrize("dialect", sorted(PARSERS))
@pytest.mark.parametrize("garbage", ["", "   \n", "<|endoftext|>", "<|im_end|>\n<|endoftext|>"])
def test_garbage_is_not_parsed_and_the_raw_is_kept(dialect: str, garbage: str) -> None:
    answer = parse_answer(dialect, garbage, PAGE)
    assert not answer.parsed and not answer.blocks and answer.raw == garbage
    if "<|" in garbage:
        assert "special-tokens" in answer.repairs


@pytest.mark.parametrize("dialect", ["dots-ocr", "qwen-spotting", "qwenvl-html", "chandra"])
def test_a_refusal_is_not_parsed(dialect: str) -> None:
    refusal = "I'm sorry, but I can't help with that request"
    answer = parse_answer(dialect, refusal, PAGE)
    assert not answer.parsed and answer.raw == refusal
    assert "not-in-dialect" in answer.repairs


def test_nested_rows_are_made_one() -> None:
    html = (
        '<table data-bbox="10 10 500 300"><tr><tr><td>a</td><td>b</td></tr></tr>'
        "<tr><td>c</td><td>d</td></tr></table>"
    )
    answer = parse_answer("qwenvl-html", html, PAGE)
    assert "nested-tr" in answer.repairs
    (block,) = answer.blocks
    assert block.table is not None and (block.table.rows, block.table.cols) == (2, 2)
    assert [c.text for c in block.table.cells] == ["a", "b", "c", "d"]


def test_a_label_outside_the_documented_set_is_text_and_named() -> None:
    cells = [{"bbox": [0, 0, 100, 100], "category": "Sidebar", "text": "Call us today"}]
    answer = parse_answer("dots-ocr", json.dumps(cells), PAGE)
    assert answer.repairs == {"unknown-label"} and "'Sidebar'" in answer.warnings[0]
    assert [(b.kind, b.label, b.text) for b in answer.blocks] == [
        ("text", "Sidebar", "Call us today")
    ]


def test_a_box_outside_the_frame_is_clipped_and_named() -> None:
    cells = [{"bbox": [1000, 1500, 1400, 1900], "category": "Text", "text": "edge"}]
    answer = parse_answer("dots-ocr", json.dumps(cells), PAGE)
    assert answer.repairs == {"box-outside-page"}
    assert answer.blocks[0].bbox == (500, 750, 600, 800)


def test_qwen3_boxes_are_on_a_thousand_grid() -> None:
    frame = PAGE.model_copy(update={"scale": 1000})
    html = (
        '<html><body><h1 data-bbox="0 0 1000 100">Report</h1>'
        '<p data-bbox="500 500 1000 1000">x</p></body></html>'
    )
    answer = parse_answer("qwenvl-html", html, frame)
    assert answer.repairs == set()
    assert [b.bbox for b in answer.blocks] == [(0, 0, 600, 80), (300, 400, 600, 800)]
    assert (answer.blocks[0].kind, answer.blocks[0].level) == ("title", 1)


def test_deepseek_without_special_tokens_reads_the_same() -> None:
    grounded = (
        "<|ref|>title<|/ref|><|det|>[[100, 50, 900, 90]]<|/det|>\n# Budget 2025\n\n"
        "<|ref|>text<|/ref|><|det|>[[100, 100, 900, 300]]<|/det|>\nSpending rose.\n\n"
        "<|ref|>equation<|/ref|><|det|>[[100, 320, 900, 360], [100, 370, 900, 400]]<|/det|>\n"
        "\\[a + b = c\\]\n"
    )
    stripped = re.sub(r"<\|/?(?:ref|det)\|>", "", grounded)
    frame = PAGE.model_copy(update={"scale": 999})
    one, two = (parse_answer("deepseek-ocr", a, frame) for a in (grounded, stripped))
    assert one.blocks == two.blocks and not one.warnings and not two.warnings
    assert [(b.kind, b.text) for b in one.blocks] == [
        ("title", "Budget 2025"),
        ("text", "Spending rose."),
        ("formula", "a + b = c"),
    ]
    assert one.blocks[0].bbox == pytest.approx(
        (100 * 600 / 999, 50 * 800 / 999, 900 * 600 / 999, 90 * 800 / 999)
    )
    assert one.blocks[2].bbox[1:4:2] == pytest.approx((320 * 800 / 999, 400 * 800 / 999))


def test_a_chandra_page_number_at_the_top_is_a_header() -> None:
    html = (
        '<div data-bbox="900 10 990 30" data-label="Page-Number">12</div>'
        '<div data-bbox="50 100 950 200" data-label="Text"><p>Body with <math>x^2</math>.</p></div>'
    )
    answer = parse_answer("chandra", html, PAGE.model_copy(update={"scale": 1000}))
    assert [b.kind for b in answer.blocks] == ["header", "text"]
    assert answer.blocks[1].text == "Body with $x^2$."
    assert answer.repairs == {"unknown-label"}  # Page-Number is not in Chandra's prompt


def test_markdown_answer_blocks() -> None:
    text = (
        "```markdown\n# Title\n\nFirst paragraph\nstill first.\n\n- one\n- two\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n$$\nx = 1\n$$\n```"
    )
    answer = parse_answer("markdown", text, PAGE)
    assert answer.repairs == {"code-fence", "no-boxes"}
    assert [(b.kind, b.text) for b in answer.blocks if b.kind != "table"] == [
        ("title", "Title"),
        ("text", "First paragraph\nstill first."),
        ("list", "one\ntwo"),
        ("formula", "x = 1"),
    ]
    table = next(b for b in answer.blocks if b.kind == "table").table
    assert table is not None and [c.text for c in table.cells] == ["a", "b", "1", "2"]
    assert all(b.bbox == PAGE.page and not b.located for b in answer.blocks)


def test_a_rotated_olmocr_page_is_named() -> None:
    text = (
        "---\nprimary_language: en\nis_rotation_valid: False\nrotation_correction: 90\n---\nHello"
    )
    answer = parse_answer("olmocr", text, PAGE)
    assert answer.repairs == {"no-boxes", "rotated"}
    assert answer.meta["rotation_correction"] == "90"


def test_paddle_otsl_is_a_table() -> None:
    answer = parse_answer("paddleocr-vl", "<fcel>a<fcel>b<nl><fcel>1<ecel><nl>", PAGE)
    (block,) = answer.blocks
    assert block.kind == "table" and block.table is not None and block.table.rows == 2


def test_the_frame_follows_the_resize_rule() -> None:
    frame = Frame.for_request(
        (612, 792), (1224, 1584), factor=28, min_pixels=3136, max_pixels=1_003_520
    )
    assert (frame.input_width, frame.input_height) == (868, 1120)
    assert frame.to_page((868, 1120, 868, 1120))[0] == (612, 792, 612, 792)


def test_tables_agree_and_unknown_dialects_are_refused() -> None:
    assert set(PARSERS) == set(PROMPTS) == set(SCALES)
    assert PROMPTS["deepseek-ocr"].user == "<|grounding|>Convert the document to markdown."
    assert "0-1000" in PROMPTS["chandra"].user and "Section-Header" in PROMPTS["chandra"].user
    with pytest.raises(ConfigError, match="known: chandra"):
        parse_answer("nougat", "x", PAGE)
