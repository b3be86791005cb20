"""Article and heading numbers as statutes print them, normalized: Arabic and Chinese numerals,
之 and 의 sub-numbers, titles in brackets, deleted articles, and cross-references that open a
sentence rather than an article."""

from __future__ import annotations

import pytest

from pagereader.structure.numbering import cited_articles, han_number, item_marker, opening


@pytest.mark.parametrize(
    ("text", "number"),
    [("十", 10), ("十五", 15), ("二十", 20), ("一百零三", 103), ("三十", 30), ("兩千", 2000)],
)
def test_chinese_numerals(text: str, number: int) -> None:
    assert han_number(text) == number


@pytest.mark.parametrize(
    ("text", "label", "number", "title", "rest"),
    [
        ("第 30-1 條 中央主管機關指定之行業", "第 30-1 條", "30-1", "", "中央主管機關指定之行業"),
        ("第十五條之一", "第十五條之一", "15-1", "", ""),
        ("第３０條 勞工", "第３０條", "30", "", "勞工"),
        ("第 2 條（定義）本法用詞，定義如下：", "第 2 條", "2", "定義", "本法用詞，定義如下："),
        ("제4조의2(목적) 이 법은", "제4조의2", "4-2", "목적", "이 법은"),
        ("제11조", "제11조", "11", "", ""),
        ("Article 12. Scope", "Article 12.", "12", "", "Scope"),
        ("Article 30-1 (Flexible hours) text", "Article 30-1", "30-1", "Flexible hours", "text"),
    ],
)
def test_articles(text: str, label: str, number: str, title: str, rest: str) -> None:
    found = opening(text)
    assert found is not None and found.kind == "article"
    assert (found.label, found.number, found.title, found.rest) == (label, number, title, rest)
    assert not found.deleted


@pytest.mark.parametrize("text", ["第 5 條（刪除）", "第五條 刪除。", "제7조 삭제"])
def test_a_deleted_article_says_so(text: str) -> None:
    found = opening(text)
    assert found is not None and found.kind == "article" and found.deleted


@pytest.mark.parametrize(
    ("text", "kind", "number", "title"),
    [
        ("第一章 總則", "chapter", "1", "總則"),
        ("第三編 物權", "part", "3", "物權"),
        ("第二節 權利能力", "section", "2", "權利能力"),
        ("제2장 국민의 권리와 의무", "chapter", "2", "국민의 권리와 의무"),
        ("제1절 통칙", "section", "1", "통칙"),
        ("CHAPTER IV General Provisions", "chapter", "IV", "General Provisions"),
        ("Part 2: Definitions", "part", "2", "Definitions"),
    ],
)
def test_headings(text: str, kind: str, number: str, title: str) -> None:
    found = opening(text)
    assert found is not None
    assert (found.kind, found.number, found.title) == (kind, number, title)


@pytest.mark.parametrize(
    "text",
    [
        "第七十八條至第八十三條規定，於未依前項規定得輔助人同意之情形，準用之。",
        "第十條規定之事項",
        "제10조에 따라 허가를 받은 자",
        "依第 12 條規定",
        "第一項正常工作時間",
        "第一章所定之事項，應於本章施行後三個月內，由主管機關依職權公告並通知各該利害關係人",
    ],
)
def test_references_and_sentences_open_nothing(text: str) -> None:
    assert opening(text) is None


@pytest.mark.parametrize(
    ("text", "kind", "label", "number", "rest"),
    [
        ("② 국교는 인정되지 아니한다.", "paragraph", "②", "2", "국교는 인정되지 아니한다."),
        ("三、為訴訟行為。", "subparagraph", "三、", "3", "為訴訟行為。"),
        ("（二）其他事項", "item", "（二）", "2", "其他事項"),
        ("3. 국회의원", "subparagraph", "3.", "3", "국회의원"),
        ("다. 지방자치단체", "item", "다.", "3", "지방자치단체"),
        ("(4) The Minister may", "paragraph", "(4)", "4", "The Minister may"),
        ("(b) any other person", "subparagraph", "(b)", "b", "any other person"),
        ("(iv) a court", "item", "(iv)", "4", "a court"),
    ],
)
def test_item_markers(text: str, kind: str, label: str, number: str, rest: str) -> None:
    found = item_marker(text)
    assert found is not None
    assert (found.kind, found.label, found.number, found.rest) == (kind, label, number, rest)


def test_plain_text_opens_no_item() -> None:
    assert item_marker("모든 국민은 법 앞에 평등하다.") is None
    assert item_marker("第一項正常工作時間") is None


def test_cited_articles() -> None:
    text = "依第三十二條第一項及第 36 條規定，準用第十五條之一；제4조의2에 따라 under Article 5"
    assert cited_articles(text) == ["32", "36", "15-1", "4-2", "5"]
    assert cited_articles("第一項至第三項") == []
    assert cited_articles("under Article 30-1 and Art. 5A") == ["30-1", "5A"]
