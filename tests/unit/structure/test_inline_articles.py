"""Statutes printed without a label column: an article's number opens its first line in the
text's own column, so a block can hold the end of a list of subparagraphs and the next
article with nothing in the layout between them. The article is cut off however the last
subparagraph ends (``；``, ``、``, nothing, a ``。`` the OCR dropped) when its number is the
next after the article open above it or a title follows it; a cross-reference wrapped to a
line's start stays in its sentence, one to the next article's number included."""

from __future__ import annotations

import pytest

from pagereader.structure.numbering import cites_on, follows
from pagereader.structure.tree import block_parts, build_structure
from pagereader.types import Block, BlockResult, PageResult, TextLine

LEFT, LEADING = 60.0, 19.0


def _block(order: int, *lines: str) -> BlockResult:
    """One block whose lines all start at the text column's edge, one under the other."""
    top = 80.0 + 100 * order
    read = tuple(
        TextLine(text=t, bbox=(LEFT, top + LEADING * i, 520.0, top + LEADING * i + 12.0))
        for i, t in enumerate(lines)
    )
    box = (LEFT, top, 520.0, top + LEADING * len(lines))
    block = Block(kind="text", bbox=box, order=order, lines=read)
    return BlockResult(block=block, text="\n".join(lines))


def _articles(*blocks: BlockResult) -> list[str]:
    roots = build_structure([PageResult(index=1, width=595.0, height=842.0, blocks=blocks)])
    return [node.id for node in roots if node.kind == "article"]


@pytest.mark.parametrize(
    "last",
    ["二、勞資爭議之處理；", "二、勞資爭議之處理、", "二、勞資爭議之處理", "二、勞資爭議應即處理"],
    ids=["semicolon", "enumeration-comma", "nothing", "dropped-full-stop"],
)
def test_a_chinese_article_after_a_list_opens_however_the_list_ends(last: str) -> None:
    ids = _articles(
        _block(0, "第 12 條 主管機關應辦理下列事項："),
        _block(1, "一、勞工檢查", last, "第 13 條 雇主應置備勞工名卡，登記其姓名。"),
        _block(2, "第 14 條 本法自公布日施行。"),
    )
    assert ids == ["art-12", "art-13", "art-14"]


def test_an_inserted_article_after_a_list_in_one_block() -> None:
    parts = block_parts(
        _block(
            0,
            "第十五條 受監護宣告之人，其監護人應辦理下列事項：",
            "一、財產清冊之開具",
            "第十五條之一 對於因精神障礙或其他心智缺陷者，法院得為輔助之宣告。",
        )
    )
    assert [p[:7] for p in parts] == ["第十五條 受監", "第十五條之一 "]


def test_an_article_after_a_sentence_the_ocr_left_open() -> None:
    ids = _articles(
        _block(
            0,
            "第 30 條 雇主應置備勞工出勤紀錄，並保存五年",
            "第 31 條 在坑道內工作之勞工，以入坑口時起為工作時間。",
        )
    )
    assert ids == ["art-30", "art-31"]


@pytest.mark.parametrize(
    "items",
    [("1. 국가안전보장", "2. 질서유지"), ("1. 국가안전보장", "2. 질서유지를 위한 사항")],
    ids=["noun", "phrase"],
)
def test_a_korean_article_after_items_that_end_no_sentence(items: tuple[str, ...]) -> None:
    ids = _articles(
        _block(0, "제12조(보고) 사용자는 다음 각 호의 사항을 보고하여야 한다."),
        _block(1, *items, "제13조(검사) 고용노동부장관은 사업장을 검사할 수 있다."),
        _block(
            2,
            "제13조의2(자료) 사용자는 자료를 보관하여야 한다.",
            "1. 임금 대장",
            "제14조(시행일) 이 법은 공포한 날부터 시행한다.",
        ),
    )
    assert ids == ["art-12", "art-13", "art-13-2", "art-14"]


def test_a_titled_article_opens_where_the_article_above_is_not_known() -> None:
    """A block read alone (a heading pass, a page range starting mid-article)."""
    block = _block(0, "1. 국가안전보장", "제13조(검사) 고용노동부장관은 사업장을 검사할 수 있다.")
    assert [p[:6] for p in block_parts(block)] == ["1. 국가안", "제13조(검"]


@pytest.mark.parametrize(
    ("opened", "wrapped"),
    [
        (
            "第 12 條 主管機關應依下列規定辦理：",
            ("一、依前條及", "第 13 條 規定辦理者，應報備查；"),
        ),
        (
            "第 12 條 主管機關應依下列規定辦理：",
            ("一、依前條及", "第 13 條之規定辦理者，應報備查；"),
        ),
        ("第 12 條 雇主應依下列規定辦理：", ("一、依第九條第一項及", "第十條申請延長者，亦同")),
        (
            "제12조(보고) 사용자는 다음 각 호의 사항을 보고하여야 한다.",
            ("1. 제11조 및", "제13조에 따라 받은 자료"),
        ),
        (
            "제12조(보고) 사용자는 다음 각 호의 사항을 보고하여야 한다.",
            ("1. 제11조 또는", "제13조 및 제14조에 따른 신고"),
        ),
        (
            "제12조(보고) 사용자는 다음 각 호의 사항을 보고하여야 한다.",
            ("1. 제11조 또는", "제13조(제20조에서 준용하는 경우를 포함한다)에 따른 신고"),
        ),
        (
            "제12조(보고) 사용자는 다음 각 호의 사항을 보고하여야 한다.",
            ("1. 제11조 또는", "제13조제1항 각 호의 사항"),
        ),
    ],
    ids=[
        "zh-next-spaced-rules",
        "zh-next-its-rules",
        "zh-earlier",
        "ko-next-particle",
        "ko-next-and",
        "ko-aside",
        "ko-part",
    ],
)
def test_a_wrapped_cross_reference_stays_in_its_sentence(
    opened: str, wrapped: tuple[str, ...]
) -> None:
    ids = _articles(_block(0, opened), _block(1, *wrapped), _block(2, opened.replace("12", "99")))
    assert ids == ["art-12", "art-99"]


def test_an_english_reference_to_the_next_article_stays_in_its_sentence() -> None:
    ids = _articles(
        _block(0, "Article 5 The Supplier shall deliver the goods as set out in"),
        _block(1, "(a) the schedule agreed under", "Article 6 hereof, and the Buyer shall pay"),
        _block(2, "Article 7 This Agreement is governed by the laws of Korea."),
    )
    assert ids == ["art-5", "art-7"]


@pytest.mark.parametrize(
    ("number", "current", "expected"),
    [
        ("13", "12", True),
        ("13", "12-2", True),
        ("12-1", "12", True),
        ("12-2", "12-1", True),
        ("3-2", "3", True),
        ("14", "12", False),
        ("12", "12", False),
        ("11", "12", False),
        ("13", None, False),
        ("V", "IV", False),
    ],
)
def test_the_next_article(number: str, current: str | None, expected: bool) -> None:
    assert follows(number, current) is expected


@pytest.mark.parametrize(
    ("rest", "expected"),
    [
        ("規定辦理", True),
        ("之規定", True),
        ("及第十四條", True),
        ("、第十四條", True),
        ("에 따라", True),
        ("의 규정에 따라", True),
        ("및 제14조", True),
        ("제1항 각 호", True),
        ("단서에 따른 경우", True),
        ("但書規定，於前二項情形準用之。", True),
        ("各款所列事項", True),
        ("雇主應置備勞工名卡。", False),
        ("고용노동부장관은 검사할 수 있다.", False),
    ],
)
def test_what_goes_on_as_a_reference(rest: str, expected: bool) -> None:
    assert cites_on(rest) is expected
