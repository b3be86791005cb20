"""Real statutes as article trees (../shared/eval/real_legal): for each statute, digital and
scanned light and heavy, the articles of document.json's ``structure`` are the reference's
(numbers in order, each article's text at consistency >= 0.98, its numbered paragraphs ① and
subparagraphs 一、 as its children), a chapter heading holds its articles at its level, and an
article that runs over the page break is one node on both pages whose text goes on across the
break."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagereader.pipeline import parse
from pagereader.text.chars import char_consistency, normalize
from pagereader.types import StructureNode

from shared_data import shared
from statute_refs import reference_articles, reference_items

pytestmark = pytest.mark.slow  # nine real documents, six of them scans

STATUTES = ("N0030001", "B0000001", "constitution_1987")
VARIANTS = ("", "-scan-light", "-scan-heavy")


def _flat(nodes: tuple[StructureNode, ...]) -> list[StructureNode]:
    return [m for n in nodes for m in (n, *_flat(n.children))]


def _squeeze(text: str) -> str:
    """As pagereader's evaluation compares text: NFKC, variant forms folded (内 and 內 print
    the same word), whitespace removed."""
    return normalize(text, markdown=False)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("stem", STATUTES)
def test_the_articles_are_the_references(stem: str, variant: str) -> None:
    result = parse(shared("eval", "real_legal", f"{stem}{variant}.pdf"))
    nodes = _flat(result.structure)
    articles = [n for n in nodes if n.kind == "article"]
    want = reference_articles(stem)
    assert [a.number for a in articles] == [n for n, _ in want]
    assert len({a.id for a in articles}) == len(articles)
    for article, (number, text) in zip(articles, want, strict=True):
        assert article.id == f"art-{number}"
        score = char_consistency(_squeeze(article.text), _squeeze(text))
        assert score >= 0.98, (number, score, article.text[:80], text[:80])
        assert article.blocks and set(article.pages) == {p for p, _ in article.blocks}
    items = reference_items(stem)
    for article in articles:
        markers = [
            c.label.rstrip("、") + ("、" if c.label.endswith("、") else "")
            for c in article.children
        ]
        assert markers == items[article.number], (article.number, markers)
        kinds = {c.kind for c in article.children}
        assert kinds <= {"paragraph", "subparagraph"}
        assert all(c.id.startswith(f"{article.id}/") and c.text for c in article.children)
    spanning = [a for a in articles if len(a.pages) == 2]
    assert spanning, "one article runs over the page break in every statute here"
    for article in spanning:
        assert article.pages == (1, 2)
    if stem == "constitution_1987":
        (chapter,) = result.structure
        assert (chapter.kind, chapter.number, chapter.level) == ("chapter", "2", 2)
        assert chapter.title == "국민의 권리와 의무"
        assert [c.kind for c in chapter.children] == ["article"] * len(articles)
        assert all(c.level == 6 for c in chapter.children)


def test_an_article_broken_by_the_page_is_one_paragraph_across_it() -> None:
    """第 32 條 of the labour statute ends page 1 mid-sentence (``...應報``) and goes on at the
    top of page 2 (``當地主管機關備查。``): one node, the two halves joined without a break."""
    result = parse(shared("eval", "real_legal", "N0030001.pdf"))
    (article,) = [n for n in _flat(result.structure) if n.id == "art-32"]
    assert article.pages == (1, 2)
    assert "應報當地主管機關備查" in article.text.replace("\n", "|")


def test_cross_references_link_to_the_articles_the_document_holds() -> None:
    """第 33 條 adjusts 第三十條、第三十二條 (both here); 第 32-1 條 cites 第三十二條 (here),
    第三十六條 and 第二十四條 (not on these pages, so not linked); 第 30 條 cites 第三十條之一."""
    result = parse(shared("eval", "real_legal", "N0030001.pdf"))
    by_id = {n.id: n for n in _flat(result.structure)}
    assert by_id["art-33"].references == ("art-30", "art-32")
    assert by_id["art-32-1"].references == ("art-32",)
    assert by_id["art-30"].references == ("art-30-1",)
    assert by_id["art-31"].references == ()


def test_a_document_without_articles_has_no_structure(tmp_path: Path) -> None:
    deck = Path(__file__).parents[2] / "examples" / "deck.pdf"
    assert parse(deck).structure == ()
