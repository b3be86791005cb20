"""The tree from blocks: headings hold the articles below them at their levels, an article's
paragraph broken by the page is joined, an item marker starts its own line, a title and its
first chapter read as one block are two nodes, repeated numbers get distinct ids, and the
running header is in no article."""

from __future__ import annotations

from pagereader.structure.tree import build_structure
from pagereader.types import Block, BlockKind, BlockResult, PageResult, TextLine


def _block(order: int, text: str, kind: BlockKind = "text") -> BlockResult:
    box = (10.0, 10.0 + 20 * order, 500.0, 28.0 + 20 * order)
    lines = tuple(TextLine(text=t, bbox=box) for t in text.split("\n"))
    return BlockResult(block=Block(kind=kind, bbox=box, order=order, lines=lines), text=text)


def _page(index: int, *blocks: BlockResult) -> PageResult:
    return PageResult(index=index, width=595.0, height=842.0, blocks=blocks)


def test_headings_articles_and_a_page_break() -> None:
    pages = [
        _page(
            1,
            _block(0, "勞動基準法", "header"),
            _block(1, "民法\n第一章 總則"),
            _block(2, "第 1 條 為規定勞動條件最低標準，特制定本法。"),
            _block(3, "第 2 條 本法用詞，定義如下："),
            _block(4, "一、勞工：指受雇主僱用從事工作獲致工資者。"),
            _block(5, "二、雇主：指僱用勞工之事業主、事業經營之負責人或代表事業主處理有關"),
        ),
        _page(
            2,
            _block(0, "勞動基準法", "header"),
            _block(1, "勞工事務之人。"),
            _block(2, "第二章 勞動契約"),
            _block(3, "第 2 條 重複的條號"),
        ),
    ]
    chapters = build_structure(pages)
    assert [(c.kind, c.number, c.title, c.level) for c in chapters] == [
        ("chapter", "1", "總則", 2),
        ("chapter", "2", "勞動契約", 2),
    ]
    first, second = chapters[0].children
    assert (first.id, first.text) == ("art-1", "為規定勞動條件最低標準，特制定本法。")
    assert second.pages == (1, 2) and (2, 1) in second.blocks
    assert second.text.split("\n") == [
        "本法用詞，定義如下：",
        "一、勞工：指受雇主僱用從事工作獲致工資者。",
        "二、雇主：指僱用勞工之事業主、事業經營之負責人或代表事業主處理有關勞工事務之人。",
    ]
    assert all("勞動基準法" not in a.text for c in chapters for a in c.children)
    (again,) = chapters[1].children
    assert again.id == "art-2.2" and again.number == "2"


def test_one_article_is_no_statute() -> None:
    pages = [_page(1, _block(0, "Article 5 of the treaty was cited."), _block(1, "More."))]
    assert build_structure(pages) == ()


def test_paragraphs_hold_their_subparagraphs_and_items() -> None:
    """Korean numbering: ① paragraph, 1. subparagraph (호), 가. item (목)."""
    pages = [
        _page(
            1,
            _block(0, "제1조(목적) 이 법은 목적을 정한다."),
            _block(1, "제2조(정의)"),
            _block(2, "① 이 법에서 사용하는 용어의 뜻은 다음과 같다."),
            _block(3, "1. 국가기관"),
            _block(4, "가. 국회"),
            _block(5, "나. 법원"),
            _block(6, "2. 지방자치단체"),
            _block(7, "② 그 밖의 용어는 대통령령으로 정한다."),
        )
    ]
    first, second = build_structure(pages)
    assert (first.id, first.title, first.children) == ("art-1", "목적", ())
    assert second.title == "정의"
    assert [c.id for c in second.children] == ["art-2/p1", "art-2/p2"]
    (one, two) = second.children[0].children
    assert (one.id, one.text, two.id) == ("art-2/p1/s1", "국가기관", "art-2/p1/s2")
    assert [(i.id, i.kind, i.text) for i in one.children] == [
        ("art-2/p1/s1/i1", "item", "국회"),
        ("art-2/p1/s1/i2", "item", "법원"),
    ]
    assert second.children[1].blocks == ((1, 7),)
