"""Statutes made by code (tests/fixtures/statute_layouts.py) in the three print layouts, in
Traditional Chinese and Korean, digital and scanned, read for real: every article that follows
a list of subparagraphs is a node of the structure tree of its own, inserted articles
(``第三十二條之一``, ``제3조의2``) included, and each article holds its own subparagraphs and
text, whatever its last subparagraph ends with and however short its label or text; printed
without a label column too, where the last subparagraph and the next article are read as one
block. The chunks follow the tree (each article's text is its own chunk(s), in order), and an
article's label alone on its line above its text (the code-book style) is never written as an
item of the list before it."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagereader.evaluate.degrade import write_scans
from pagereader.pipeline import parse
from pagereader.structure.chunks import document_chunks
from pagereader.text.chars import char_consistency, normalize
from pagereader.types import StructureNode

from fixtures.statute_layouts import write_statute


def _flat(nodes: tuple[StructureNode, ...]) -> list[StructureNode]:
    return [m for n in nodes for m in (n, *_flat(n.children))]


@pytest.mark.parametrize("scanned", [False, True], ids=["digital", "scan"])
@pytest.mark.parametrize("layout", ["column", "heading", "inline"])
@pytest.mark.parametrize("lang", ["zh-Hant", "ko"])
def test_articles_after_lists_are_their_own_nodes(
    tmp_path: Path, lang: str, layout: str, scanned: bool
) -> None:
    pdf = tmp_path / "statute.pdf"
    articles = write_statute(pdf, lang, layout)
    if scanned:
        scan = tmp_path / "statute-scan.pdf"
        write_scans(pdf, scan, "light")
        pdf = scan
    result = parse(pdf)
    nodes = [n for n in _flat(result.structure) if n.kind == "article"]
    assert [n.id for n in nodes] == [f"art-{a.number}" for a in articles]
    first: dict[str | None, str] = {}
    for chunk in document_chunks(result):
        first.setdefault(chunk.article_id, "".join(chunk.text.split()))
    assert list(first) == [n.id for n in nodes]
    for node, article in zip(nodes, articles, strict=True):
        assert first[node.id].startswith(article.label), (node.id, first[node.id])
    items = [ln for ln in result.markdown.splitlines() if ln.startswith(("- ", "* "))]
    assert not [ln for ln in items if any(a.label in ln.replace(" ", "") for a in articles)]
    for node, article in zip(nodes, articles, strict=True):
        markers = [child.label for child in node.children]
        assert markers == [item.split(maxsplit=1)[0][:2] for item in article.items], node.id
        title = f"({node.title}) " if node.title else ""
        assert article.text.startswith(title)
        want = article.text.removeprefix(title) + "".join(article.items)
        got = node.text.replace("\n", "")
        score = char_consistency(normalize(got, markdown=False), normalize(want, markdown=False))
        assert score >= 0.95, (node.id, got, want)
