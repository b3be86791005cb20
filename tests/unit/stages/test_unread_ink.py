"""A scan with ink from which nothing was read and in which no picture was found says so in the
page's warnings, and review.md lists page warnings: an empty page is never returned in
silence."""

from __future__ import annotations

from PIL import Image

from pagereader.render.review import review_markdown
from pagereader.sources.base import RenderedPage
from pagereader.stages.assemble import page_result, scan_warnings
from pagereader.stages.state import PageState
from pagereader.types import Block, BlockResult, DocumentResult, PageDecision, PageFeatures


def _state(ink: float, results: list[BlockResult], trusted: bool = False) -> PageState:
    page = RenderedPage(
        file="scan.png", index=3, width=100, height=100, scale=1.0, image=Image.new("L", (100, 100))
    )
    decision = PageDecision(
        page_class="scan",
        max_pixels=501_760,
        min_pixels=3136,
        reasons=(),
        features=PageFeatures(ink_fraction=ink),
    )
    state = PageState(rendered=page, decision=decision, trusted_text=trusted, results=results)
    state.warnings = scan_warnings(state)  # as the assemble stage does
    return state


def _block(kind: str, text: str) -> BlockResult:
    return BlockResult(block=Block(kind=kind, bbox=(0, 0, 50, 20)), text=text)


def test_ink_with_nothing_read_is_said() -> None:
    (warning,) = page_result(_state(0.12, []), None).warnings
    assert warning.startswith("12% of the page is ink, but no text was read")
    assert page_result(_state(0.12, [_block("text", "")]), None).warnings


def test_text_a_picture_a_blank_page_or_a_text_layer_say_nothing() -> None:
    assert page_result(_state(0.12, [_block("text", "read")]), None).warnings == ()
    assert page_result(_state(0.12, [_block("figure", "")]), None).warnings == ()
    assert page_result(_state(0.005, []), None).warnings == ()
    assert page_result(_state(0.12, [], trusted=True), None).warnings == ()


def test_page_warnings_are_listed_in_the_review() -> None:
    page = page_result(_state(0.12, []), None)
    result = DocumentResult(schema_version="1", source="scan.png", status="ok", pages=(page,))
    review = review_markdown(result)
    assert "## Pages to check" in review and "Nothing to review" not in review
    assert "- [page 3](pages/003.png): 12% of the page is ink, but no text was read" in review
    quiet = page_result(_state(0.12, [_block("text", "read")]), None)
    calm = review_markdown(result.model_copy(update={"pages": (quiet,)}))
    assert "Pages to check" not in calm and "Nothing to review" in calm
