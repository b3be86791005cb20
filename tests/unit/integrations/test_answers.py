"""The adapters' answers: Markdown bounded with a note, article numbers as people write
them, and an article asked for in any of those forms is that article or a clear "no article"
naming the closest ones, never a neighbour (a statute holding both 30 and 30-1)."""

from __future__ import annotations

import pytest

from pagereader.config.options import Options
from pagereader.document.finish import PagesRead, finish_document
from pagereader.errors import InputError
from pagereader.integrations.answers import article_answer, bounded
from pagereader.structure.numbering import asked_article
from pagereader.types import Block, BlockResult, DocumentResult, PageResult, TextLine


def test_short_markdown_is_whole() -> None:
    answer = bounded("# Title\n\ntext\n", 100, "more")
    assert answer.markdown == "# Title\n\ntext\n" and not answer.truncated
    assert answer.total_chars == len("# Title\n\ntext\n")


def test_long_markdown_is_cut_at_a_line_end_with_a_note() -> None:
    lines = [f"line {n:03d} " + "x" * 40 for n in range(100)]
    text = "\n".join(lines)
    answer = bounded(text, 1000, "read_page returns one page")
    assert answer.truncated and answer.total_chars == len(text)
    body, note = answer.markdown.split("\n\n[truncated: ")
    assert text.startswith(body) and len(body) <= 1000 and text[len(body)] == "\n"
    assert note.startswith(f"{len(body)} of {len(text)} characters shown; read_page")


def test_one_long_line_is_cut_at_the_limit() -> None:
    answer = bounded("y" * 5000, 1000, "more")
    assert answer.markdown.startswith("y" * 1000 + "\n\n[truncated: 1000 of 5000")


@pytest.mark.parametrize(
    ("asked", "number"),
    [
        ("30-1", "30-1"),
        ("第三十條之一", "30-1"),
        ("第 30-1 條", "30-1"),
        ("第十五條", "15"),
        ("第１２條", "12"),
        ("제4조의2", "4-2"),
        ("Article 5", "5"),
        ("十五", "15"),
        ("12", "12"),
        ("Article 30-1", "30-1"),
        ("Art. 30-1", "30-1"),
        ("Art 30-1", "30-1"),
        ("article 30-1", "30-1"),
        ("ARTICLE 30-1", "30-1"),
        ("第30-1條", "30-1"),
        ("제30조의2", "30-2"),
        ("art-30-1", "30-1"),
        ("Article 5A", "5A"),
        ("三十之一", "30-1"),
        ("art-30.2", "30.2"),
    ],
)
def test_article_numbers_as_people_write_them(asked: str, number: str) -> None:
    assert asked_article(asked) == f"art-{number}"


@pytest.mark.parametrize("asked", ["Article 30-1 text", "30 1", "Article", "第30條-1", "thirty"])
def test_what_names_no_article_is_none(asked: str) -> None:
    assert asked_article(asked) is None


def _statute(*lines: str) -> DocumentResult:
    blocks = []
    for order, text in enumerate(lines):
        box = (10.0, 10.0 + 20 * order, 500.0, 28.0 + 20 * order)
        block = Block(kind="text", bbox=box, order=order, lines=(TextLine(text=text, bbox=box),))
        blocks.append(BlockResult(block=block, text=text))
    page = PageResult(index=1, width=595.0, height=842.0, blocks=tuple(blocks))
    read = PagesRead(file="law.pdf", local="law.pdf", page_count=1, pages=(page,))
    return finish_document(read, Options())


CHINESE = _statute(
    "第 30 條 勞工正常工作時間，每日不得超過八小時。",
    "第 30-1 條 中央主管機關指定之行業，雇主經工會同意者，得變更工作時間。",
    "第 31 條 在坑道或隧道內工作之勞工，以入坑口時起為工作時間。",
    "第 32 條 雇主有使勞工在正常工作時間以外工作之必要者，得延長之。",
)
ENGLISH = _statute(
    "Article 30 (Working hours) Working hours shall not exceed eight hours a day.",
    "Article 30-1 (Flexible hours) An employer may change the working hours.",
    "Article 31 (Mines) Working hours in a mine run from the entrance.",
    "Article 32 (Overtime) An employer may extend the working hours.",
)
KOREAN = _statute(
    "제30조(근로시간) 근로시간은 1일 8시간을 초과할 수 없다.",
    "제30조의2(탄력적 근로시간) 사용자는 근로시간을 변경할 수 있다.",
    "제31조(갱내근로) 갱내근로는 입구에서부터 근로시간으로 본다.",
    "제32조(연장근로) 사용자는 근로시간을 연장할 수 있다.",
)
FORMS_30_1 = [
    "Article 30-1",
    "Art. 30-1",
    "Art 30-1",
    "article 30-1",
    "第30-1條",
    "第 30-1 條",
    "第三十條之一",
    "30-1",
    "art-30-1",
    "３０－１",
]


@pytest.mark.parametrize("document", [CHINESE, ENGLISH], ids=["zh", "en"])
@pytest.mark.parametrize("asked", FORMS_30_1)
def test_every_form_of_30_1_is_30_1_never_30(document: DocumentResult, asked: str) -> None:
    article = article_answer("law", document, asked)
    assert (article.id, article.number) == ("art-30-1", "30-1")
    wanted = "中央主管機關" if document is CHINESE else "change the working hours"
    assert wanted in article.text


@pytest.mark.parametrize("document", [CHINESE, ENGLISH, KOREAN], ids=["zh", "en", "ko"])
@pytest.mark.parametrize("asked", ["Article 30", "Art 30", "article 30", "第30條", "30", "art-30"])
def test_every_form_of_30_is_30(document: DocumentResult, asked: str) -> None:
    assert article_answer("law", document, asked).id == "art-30"


@pytest.mark.parametrize("asked", ["제30조의2", "Article 30-2", "art-30-2", "30-2"])
def test_a_korean_sub_article(asked: str) -> None:
    article = article_answer("law", KOREAN, asked)
    assert (article.id, article.title) == ("art-30-2", "탄력적 근로시간")


@pytest.mark.parametrize("document", [CHINESE, ENGLISH], ids=["zh", "en"])
@pytest.mark.parametrize(
    "asked", ["Art 32-1", "article 32-1", "第三十二條之一", "art-32-1", "32-1"]
)
def test_an_article_not_held_is_no_article_naming_the_closest(
    document: DocumentResult, asked: str
) -> None:
    with pytest.raises(InputError) as caught:
        article_answer("law", document, asked)
    message = caught.value.message
    assert message.startswith(f"no article 32-1 (asked {asked!r})"), message
    assert "art-32" in message and "art-31" in message


@pytest.mark.parametrize("asked", ["Article 30-1 text", "thirty", "第30條-1"])
def test_what_is_not_an_article_number_is_said_so(asked: str) -> None:
    with pytest.raises(InputError) as caught:
        article_answer("law", CHINESE, asked)
    assert f"{asked!r} is not an article number" in caught.value.message


def test_a_number_printed_twice_is_asked_for_by_its_id() -> None:
    twice = _statute("第 2 條 本法用詞，定義如下。", "第 3 條 前條之規定。", "第 2 條 重複的條號。")
    assert article_answer("law", twice, "第2條").text == "本法用詞，定義如下。"
    assert article_answer("law", twice, "art-2.2").text == "重複的條號。"
