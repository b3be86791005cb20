"""The document's running headers and footers told from body text at a page's edge, on pages
given as values: a running title printed on the outer side of facing pages, a scan's header
read with a letter wrong, a number in the footer band no other page repeats."""

from __future__ import annotations

from pagereader.document.running import CHECK, running_furniture
from pagereader.render.markdown import page_markdown
from pagereader.types import BBox, Block, BlockKind, BlockResult, PageResult

WIDTH, HEIGHT = 595.0, 842.0


def _block(kind: BlockKind, box: BBox, text: str, order: int) -> BlockResult:
    return BlockResult(block=Block(kind=kind, bbox=box, order=order, source="ocr"), text=text)


def _page(index: int, *edges: tuple[BlockKind, BBox, str]) -> PageResult:
    body = _block("text", (60, 100, 535, 700), f"The body of page {index}.", 1)
    blocks = (body, *(_block(k, b, t, i + 2) for i, (k, b, t) in enumerate(edges)))
    markdown = page_markdown(blocks)
    return PageResult(index=index, width=WIDTH, height=HEIGHT, blocks=blocks, markdown=markdown)


def _edge(pages: list[PageResult], index: int, text: str) -> BlockResult:
    page = next(p for p in pages if p.index == index)
    return next(r for r in page.blocks if r.text == text)


def _reasons(result: BlockResult) -> list[str]:
    return [f.message for f in result.verdict.findings if f.check == CHECK]


def test_a_running_title_on_the_outer_side_of_facing_pages_is_a_header() -> None:
    left, right = (60.0, 30.0, 200.0, 42.0), (395.0, 30.0, 535.0, 42.0)
    pages = [
        _page(n, ("header", left if n % 2 == 0 else right, "Harbour Rules, Part 2"))
        for n in range(1, 5)
    ]
    out = running_furniture(pages, mark_review=False)
    for n in range(1, 5):
        result = _edge(out, n, "Harbour Rules, Part 2")
        assert result.block.kind == "header"
        assert _reasons(result)[0].startswith("running header")
        assert out[n - 1].markdown == f"The body of page {n}."


def test_a_scans_header_read_with_a_letter_wrong_still_repeats() -> None:
    box = (60.0, 30.0, 400.0, 42.0)
    pages = [
        _page(1, ("header", box, "Labor Standards Act, chapter 3")),
        _page(2, ("header", box, "Lab0r Standards Act, chapter 4")),
    ]
    out = running_furniture(pages, mark_review=False)
    assert [_edge(out, n, pages[n - 1].blocks[1].text).block.kind for n in (1, 2)] == [
        "header",
        "header",
    ]


def test_a_number_in_the_footer_band_no_other_page_repeats_goes_to_review() -> None:
    pages = [
        _page(1, ("footer", (280.0, 810.0, 300.0, 822.0), "7")),
        _page(2, ("footer", (60.0, 790.0, 400.0, 802.0), "shall be punished under Article 24.")),
    ]
    out = running_furniture(pages, mark_review=True)
    number = _edge(out, 1, "7")
    assert number.block.kind == "footer"
    assert number.verdict.outcome == "review"
    assert "no other page repeats" in _reasons(number)[0]
    line = _edge(out, 2, "shall be punished under Article 24.")
    assert line.block.kind == "text"
    assert out[1].markdown.endswith("shall be punished under Article 24.")


def test_a_copy_of_a_page_is_no_repetition() -> None:
    text = "shall be punished under Article 24."
    line: tuple[BlockKind, BBox, str] = ("footer", (60.0, 790.0, 400.0, 802.0), text)
    first = _page(1, line)
    copy = first.model_copy(update={"index": 2, "duplicate_of": 1})
    out = running_furniture([first, copy], mark_review=False)
    for page in out:
        assert _edge(out, page.index, text).block.kind == "text"
        assert page.markdown.endswith(text)
