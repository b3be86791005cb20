"""Heading levels from numbering and type size: a statute's chapters under its title and its
sections under its chapters, a paper's decimal sections, unnumbered headings by size, a deck's
slide titles at the top of each slide, heading paths on body blocks and none on furniture, and
Markdown with as many ``#`` as the level."""

from __future__ import annotations

from pagereader.render.markdown import block_markdown
from pagereader.structure.headings import numbering_style, with_headings
from pagereader.types import Block, BlockKind, BlockResult, PageResult, TextLine


def _block(
    order: int, text: str, kind: BlockKind = "text", size: float = 10.0, bold: bool = False
) -> BlockResult:
    box = (10.0, 10.0 + 20 * order, 500.0, 10.0 + 20 * order + size)
    lines = tuple(TextLine(text=t, bbox=box, font_size=size, bold=bold) for t in text.split("\n"))
    return BlockResult(block=Block(kind=kind, bbox=box, order=order, lines=lines), text=text)


def _page(index: int, *blocks: BlockResult, width: float = 595.0) -> PageResult:
    return PageResult(index=index, width=width, height=842.0, blocks=blocks)


def _levels(pages: list[PageResult]) -> list[tuple[str, int | None, tuple[str, ...]]]:
    return [(b.text, b.level, b.heading_path) for page in pages for b in page.blocks]


def test_statute_chapters_under_the_title_and_sections_under_chapters() -> None:
    pages = with_headings(
        [
            _page(
                1,
                _block(0, "勞動基準法", "header", 8),
                _block(1, "中華民國憲法", "title", 16),
                _block(2, "第一章 總綱"),  # a chapter set in body type
                _block(3, "第一節 通則", "title", 12),
                _block(4, "第 1 條 中華民國基於三民主義。"),
            ),
            _page(
                2,
                _block(0, "第二章 人民之權利義務", "title", 12),
                _block(1, "第 7 條 中華民國人民，無分男女。"),
            ),
        ]
    )
    title, chapter, section = "中華民國憲法", "第一章 總綱", "第一節 通則"
    assert _levels(pages) == [
        ("勞動基準法", None, ()),
        (title, 1, ()),
        (chapter, 2, (title,)),
        (section, 3, (title, chapter)),
        ("第 1 條 中華民國基於三民主義。", None, (title, chapter, section)),
        ("第二章 人民之權利義務", 2, (title,)),
        ("第 7 條 中華民國人民，無分男女。", None, (title, "第二章 人民之權利義務")),
    ]
    assert block_markdown(pages[0].blocks[2]) == "## 第一章 總綱"
    assert block_markdown(pages[0].blocks[3]) == "### 第一節 通則"


def test_a_title_read_with_its_first_chapter_as_one_block() -> None:
    pages = with_headings(
        [
            _page(
                1,
                _block(0, "대한민국헌법\n제2장 국민의 권리와 의무"),
                _block(1, "제10조 모든 국민은"),
            )
        ]
    )
    assert _levels(pages) == [
        ("대한민국헌법\n제2장 국민의 권리와 의무", 2, ("대한민국헌법",)),
        ("제10조 모든 국민은", None, ("대한민국헌법", "제2장 국민의 권리와 의무")),
    ]


def test_a_paper_decimal_sections_and_unnumbered_headings_by_size() -> None:
    pages = with_headings(
        [
            _page(
                1,
                _block(0, "A Study of Layouts", "title", 17),
                _block(1, "Abstract", "title", 12),
                _block(2, "We study layouts."),
                _block(3, "1 Introduction", "title", 12),
                _block(4, "1.1 Background", "title", 11),
                _block(5, "Some background."),
                _block(6, "2 Method", "title", 12),
                _block(7, "References", "title", 12),
            )
        ]
    )
    levels = {text: (level, path) for text, level, path in _levels(pages)}
    top = ("A Study of Layouts",)
    assert levels["A Study of Layouts"] == (1, ())
    assert levels["Abstract"] == (2, top)
    assert levels["1 Introduction"] == (2, top)
    assert levels["1.1 Background"] == (3, (*top, "1 Introduction"))
    assert levels["Some background."] == (None, (*top, "1 Introduction", "1.1 Background"))
    assert levels["2 Method"] == (2, top)
    assert levels["References"] == (2, top)


def test_outline_letters_nest_under_roman_numerals_of_the_same_size() -> None:
    pages = with_headings(
        [
            _page(
                1,
                _block(0, "I. Scope", "title", 12),
                _block(1, "A. Parties", "title", 12),
                _block(2, "B. Term", "title", 12),
                _block(3, "II. Payment", "title", 12),
            )
        ]
    )
    assert [(t, lv) for t, lv, _ in _levels(pages)] == [
        ("I. Scope", 1),
        ("A. Parties", 2),
        ("B. Term", 2),
        ("II. Payment", 1),
    ]


def test_each_slide_title_is_its_slides_top_heading() -> None:
    wide = 842.0 * 16 / 9  # a 16:9 slide
    pages = with_headings(
        [
            _page(1, _block(0, "Quarterly Review", "title", 28), _block(1, "Up 18%"), width=wide),
            _page(
                2,
                _block(0, "Costs", "title", 24),
                _block(1, "Big Subtitle", "title", 28),
                _block(2, "Down 3%"),
                width=wide,
            ),
        ]
    )
    assert _levels(pages) == [
        ("Quarterly Review", 1, ()),
        ("Up 18%", None, ("Quarterly Review",)),
        ("Costs", 1, ()),
        ("Big Subtitle", 2, ("Costs",)),
        ("Down 3%", None, ("Costs", "Big Subtitle")),
    ]


def test_numbering_families() -> None:
    assert numbering_style("第三編 債") == ("statute", 1)
    assert numbering_style("제2장 국민의 권리와 의무") == ("statute", 2)
    assert numbering_style("Section 4 Payment") == ("statute", 3)
    assert numbering_style("3.2.1 Results") == ("decimal", 3)
    assert numbering_style("1 Introduction") == ("decimal", 1)
    assert numbering_style("IV. Discussion") == ("roman", 1)
    assert numbering_style("（二）適用範圍") == ("han-paren", 1)
    assert numbering_style("2019 Annual Report") is None
    assert numbering_style("Introduction") is None


def test_levels_stop_at_six() -> None:
    names = ["1 A", "1.1 B", "1.1.1 C", "1.1.1.1 D", "1.1.1.1.1 E", "1.1.1.1.1.1 F", "(a) G"]
    pages = with_headings([_page(1, *(_block(i, t, "title") for i, t in enumerate(names)))])
    assert [lv for _, lv, _ in _levels(pages)] == [1, 2, 3, 4, 5, 6, 6]
    assert block_markdown(pages[0].blocks[6]) == "###### (a) G"


def test_a_line_set_a_size_above_the_body_is_a_heading() -> None:
    body = "Word processors changed offices. They spread in the 1980s and never left."
    pages = with_headings(
        [
            _page(
                1,
                _block(0, "Pre-Digital Era (19th - Early 20th Century)", size=12.4),
                _block(1, body, size=11.1),
                _block(2, "A bigger sentence that ends with a full stop.", size=12.4),
                _block(3, body, size=11.1),
                _block(4, "The Modern Era (1990s - Present)", size=12.4),
                _block(5, "Same size as the body, no heading", size=11.1),
            )
        ]
    )
    assert [(t, lv) for t, lv, _ in _levels(pages)] == [
        ("Pre-Digital Era (19th - Early 20th Century)", 1),
        (body, None),
        ("A bigger sentence that ends with a full stop.", None),
        (body, None),
        ("The Modern Era (1990s - Present)", 1),
        ("Same size as the body, no heading", None),
    ]
    assert block_markdown(pages[0].blocks[4]) == "# The Modern Era (1990s - Present)"


def test_a_bold_line_in_body_type_is_a_heading_where_the_body_is_not_bold() -> None:
    body = "Word processors changed offices. They spread in the 1980s and never left."
    plain = [_block(1, body), _block(3, body), _block(4, body)]
    pages = with_headings(
        [_page(1, _block(0, "The Evolution of the Word Processor", bold=True), *plain)]
    )
    assert [lv for _, lv, _ in _levels(pages)] == [1, None, None, None]
    everything_bold = [_block(i, body, bold=True) for i in (1, 3, 4)]
    pages = with_headings(
        [_page(1, _block(0, "The Evolution of the Word Processor", bold=True), *everything_bold)]
    )
    assert [lv for _, lv, _ in _levels(pages)] == [None, None, None, None]


def test_an_articles_label_in_bold_is_no_heading() -> None:
    body = "모든 국민은 인간으로서의 존엄과 가치를 가지며, 행복을 추구할 권리를 가진다."
    pages = with_headings(
        [_page(1, _block(0, "제10조", bold=True), _block(1, body), _block(2, body))]
    )
    assert [lv for _, lv, _ in _levels(pages)] == [None, None, None]


def test_a_first_heading_in_section_type_is_no_title_over_the_sections() -> None:
    names = ["Abstract", "1 Introduction", "1.1 Scope", "2 Method"]
    sizes = [12.0, 12.0, 11.0, 12.0]
    blocks = [_block(i, t, "title", s) for i, (t, s) in enumerate(zip(names, sizes, strict=True))]
    pages = with_headings([_page(1, *blocks)])
    assert [lv for _, lv, _ in _levels(pages)] == [1, 1, 2, 1]
