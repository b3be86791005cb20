"""Paragraph grouping, kind guessing and line joining on synthetic line boxes."""

from __future__ import annotations

from pagereader.layout.block_kinds import is_caption, is_footnote, is_list_item, is_page_number
from pagereader.layout.line_text import block_text, join_lines
from pagereader.layout.paragraphs import group_lines
from pagereader.types import TextLine

W, H = 612.0, 792.0


def line(text: str, x0: float, y0: float, x1: float, size: float = 10.0) -> TextLine:
    return TextLine(text=text, bbox=(x0, y0, x1, y0 + size), font_size=size)


def column(texts: list[str], x0: float, y0: float, x1: float, step: float = 12.0) -> list[TextLine]:
    return [line(t, x0, y0 + i * step, x1) for i, t in enumerate(texts)]


def test_two_paragraphs_split_on_gap() -> None:
    lines = column(["Alpha beta", "gamma delta."], 72, 100, 540) + column(
        ["Second para", "goes on."], 72, 140, 540
    )
    blocks = group_lines(lines, H)
    assert [block_text(b) for b in blocks] == ["Alpha beta gamma delta.", "Second para goes on."]
    assert [b.kind for b in blocks] == ["text", "text"]
    assert blocks[0].bbox == (72, 100, 540, 122)


def test_columns_stay_apart() -> None:
    left = column(["left one", "left two", "left three"], 72, 100, 290)
    right = column(["right one", "right two"], 320, 100, 540)
    blocks = group_lines(left + right, H)
    texts = sorted(block_text(b) for b in blocks)
    assert texts == ["left one left two left three", "right one right two"]


def test_font_size_change_breaks_and_title_detected() -> None:
    body = column(["body text line one", "body text line two", "and three"], 72, 104, 540)
    lines = [line("A Big Title", 72, 80, 400, size=20), *body]
    blocks = group_lines(lines, H)
    assert [(b.kind, block_text(b)) for b in blocks] == [
        ("title", "A Big Title"),
        ("text", "body text line one body text line two and three"),
    ]


def test_header_footer_bands() -> None:
    lines = [
        line("Annual Report 2024", 72, 20, 200, size=8),
        *column(["Body text here.", "More body."], 72, 100, 540),
        line("7", 300, 760, 306, size=8),
    ]
    blocks = group_lines(lines, H)
    kinds = {block_text(b): b.kind for b in blocks}
    assert kinds == {
        "Annual Report 2024": "header",
        "Body text here. More body.": "text",
        "7": "footer",
    }


def test_list_items_each_a_block_with_continuation() -> None:
    lines = [
        line("• first item", 72, 100, 300),
        line("continues here", 84, 112, 300),
        line("• second item", 72, 124, 300),
        line("1. numbered", 72, 136, 300),
        line("一、總則", 72, 148, 300),
        line("① 첫째", 72, 160, 300),
        line("가. 항목", 72, 172, 300),
    ]
    blocks = group_lines(lines, H)
    assert [(b.kind, block_text(b)) for b in blocks] == [
        ("list", "• first item continues here"),
        ("list", "• second item"),
        ("list", "1. numbered"),
        ("list", "一、總則"),
        ("list", "① 첫째"),
        ("list", "가. 항목"),
    ]


def test_caption_detected() -> None:
    lines = [
        *column(["Some body text", "that continues."], 72, 100, 540),
        line("Figure 2: Results by region.", 72, 300, 400),
        line("表 3 各區人口", 72, 330, 200),
        line("그림 1. 구조", 72, 360, 200),
    ]
    blocks = group_lines(lines, H)
    assert [b.kind for b in blocks] == ["text", "caption", "caption", "caption"]


def test_ocr_lines_without_font_size_and_split_row() -> None:
    lines = [
        TextLine(text="Hello", bbox=(10, 100, 60, 120)),
        TextLine(text="world", bbox=(70, 101, 120, 121)),
        TextLine(text="next line", bbox=(10, 126, 120, 146)),
    ]
    blocks = group_lines(lines, 1000, source="ocr")
    assert len(blocks) == 1
    assert block_text(blocks[0]) == "Hello world next line"
    assert blocks[0].source == "ocr"


def test_join_lines_cjk_latin_hyphen() -> None:
    def j(*texts: str) -> str:
        return join_lines([TextLine(text=t, bbox=(0, 0, 1, 1)) for t in texts])

    assert j("第一條 本法", "所稱之主管機關") == "第一條 本法所稱之主管機關"
    assert j("不得違反", "規定。") == "不得違反規定。"
    assert j("interna-", "tional law") == "international law"
    assert j("well-", "Known") == "well-Known"  # a capital after the hyphen: a compound
    assert j("dense-", "page model") == "dense-page model"  # no evidence of a broken word
    assert j("an irretrie-", "vably negative force") == "an irretrievably negative force"
    assert j("infor-", "mation age") == "information age"
    assert j("cross-", "linked data") == "cross-linked data"
    assert j("sub-", "sets of it") == "sub-sets of it"
    for head, word in (
        ("second-", "best"),
        ("well-", "fed"),
        ("user-", "led"),
        ("stress-", "test"),
    ):
        assert j(head, f"{word} one") == f"{head}{word} one"  # short words after the hyphen
    assert j("end of", "line") == "end of line"
    assert j("한국어 문장이", "이어진다") == "한국어 문장이 이어진다"
    assert j("第1", "條") == "第1條"
    assert j("見表", "2") == "見表2"
    assert j("使用", "Python") == "使用 Python"


def test_predicates() -> None:
    assert is_list_item("- dash item") and is_list_item("(a) lettered") and is_list_item("(二) 款")
    assert not is_list_item("-5 degrees") and not is_list_item("1.5 kg of sugar")
    assert is_caption("Table 1: Sales") and is_caption("Fig. 3. A plot")
    assert not is_caption("Table 1 shows that sales went up in every region of the country.", 3)
    assert is_page_number("- 3 -") and is_page_number("Page 2 of 9") and is_page_number("12")
    assert not is_page_number("Chapter 3")


def test_empty_input() -> None:
    assert group_lines([], H) == []
    assert group_lines([line("   ", 0, 0, 10)], H) == []


def test_fragments_of_a_row_are_joined() -> None:
    lines = [
        # A text layer that gives the bold run, the bullet and the rest of a line separately,
        # the rest starting a hair higher than the bold run.
        TextLine(text=": more text here", bbox=(167, 465.7, 509, 476.6)),
        TextLine(text="Undo/Redo", bbox=(108, 465.9, 165, 474.2)),
        TextLine(text="1.", bbox=(91, 465.9, 98, 474.2)),
        TextLine(text="continued below", bbox=(108, 479.6, 376, 490.5)),
        TextLine(text=": By the 1990s", bbox=(283, 493.3, 516, 504.2)),
        TextLine(text="Spell Check", bbox=(108.6, 493.5, 282, 504.2)),
        TextLine(text="2.", bbox=(90.3, 493.5, 98, 501.8)),
        TextLine(text="HPO performed", bbox=(188.5, 574.9, 480, 583.0)),
        TextLine(text="Table 1.", bbox=(135.2, 575.0, 174.8, 581.3)),
    ]
    blocks = group_lines(lines, H)
    assert [(b.kind, block_text(b)) for b in blocks] == [
        ("list", "1. Undo/Redo : more text here continued below"),
        ("list", "2. Spell Check : By the 1990s"),
        ("caption", "Table 1. HPO performed"),
    ]


def test_a_sentence_running_into_the_bottom_band_stays_in_its_paragraph() -> None:
    """A slide's last bullet wraps over the footer's height: its last word is body text; the
    slide number beside it and a footer after a finished sentence stay furniture."""
    lines = [
        line("• E-Authentication needs to up its privacy", 72, 720, 540, size=18),
        line("protections", 90, 738, 200, size=18),
        line("14", 560, 742, 572, size=10),
    ]
    blocks = group_lines(lines, H)
    kinds = {block_text(b): b.kind for b in blocks}
    assert kinds == {
        "• E-Authentication needs to up its privacy protections": "list",
        "14": "footer",
    }
    ended = [line("The rules apply to every page.", 72, 728, 540), line("Draft", 72, 740, 110)]
    assert [b.kind for b in group_lines(ended, H)] == ["text", "footer"]
    small = [
        line("The office publishes the issue with", 72, 720, 540, size=10),
        line("07233 Seoul, Yeongdeungpo-gu, 1 Uisadang-daero", 72, 738, 300, size=8),
    ]
    assert [b.kind for b in group_lines(small, H)] == ["text", "footer"]


def test_a_footnote_in_a_slides_bottom_band_is_text() -> None:
    """On a landscape page; on paper that band is the running footer's."""
    lines = [
        *column(["Body text here.", "More body."], 72, 100, 540),
        line("** Codified in NIST SP 800-63", 200, 745, 420, size=9),
        line("Company Confidential", 200, 775, 320, size=9),
    ]
    on_slide = {block_text(b): b.kind for b in group_lines(lines, H, page_width=2 * H)}
    assert on_slide["** Codified in NIST SP 800-63"] == "text"
    assert on_slide["Company Confidential"] == "footer"
    on_paper = {block_text(b): b.kind for b in group_lines(lines, H, page_width=W)}
    assert on_paper["** Codified in NIST SP 800-63"] == "footer"
    assert is_footnote("† Estimated") and is_footnote("¹ See above")
    assert not is_footnote("2024 Annual Report") and not is_footnote("** 12")


def test_a_heading_beside_a_larger_column_is_no_part_of_its_row() -> None:
    """An abstract set large across two columns, and the third column's heading on its row
    an em and a bit away: a line of another size across that gap is another column."""
    abstract = [
        line("environment. Two transnational tobacco companies have", 69, 451, 343, 10.7),
        line("recently adopted CSR: Philip Morris, and British American", 69, 464, 347, 10.7),
        line("Tobacco. This report explains the origins and theory", 69, 477, 321, 10.7),
    ]
    heading = [
        line("CORPORATE SOCIAL RESPONSIBILITY:", 359, 462, 528, 8.3),
        line("THE CONTEXT", 359, 472, 420, 8.3),
    ]
    blocks = group_lines(abstract + heading, H)
    assert sorted(block_text(b) for b in blocks) == [
        "CORPORATE SOCIAL RESPONSIBILITY: THE CONTEXT",
        "environment. Two transnational tobacco companies have recently adopted CSR: Philip"
        " Morris, and British American Tobacco. This report explains the origins and theory",
    ]


def test_a_word_set_larger_in_its_line_stays_in_the_row() -> None:
    """A size change with a word space between is one line (a larger figure in a sentence)."""
    lines = [
        line("Revenue rose to", 72, 100, 150, 10.0),
        line("$4.2M", 153, 98, 190, 14.0),
        line("this year.", 193, 100, 240, 10.0),
    ]
    blocks = group_lines(lines, H)
    assert [block_text(b) for b in blocks] == ["Revenue rose to $4.2M this year."]
