"""What a page's text layer still decides after the engines have read it.

A title slide holds one word; when the decision layer sent such a page to OCR (a short layer
over a page image) and OCR read less than the layer holds, the layer wins: a page with text
never comes out empty. And a block whose text is mojibake (a CJK code page read as Latin-1,
see mojibake.py) is named in a warning: every glyph of it is valid, so nothing else would say.
"""

from __future__ import annotations

from pagereader.layout.line_text import join_lines
from pagereader.layout.paragraphs import group_lines
from pagereader.layout.reading_order import order_blocks
from pagereader.stages.state import PageState
from pagereader.text.chars import normalize
from pagereader.text.mojibake import mojibake_chars
from pagereader.types import BlockResult

OCR_SHARE = 0.5
"""OCR that reads under this share of the text layer's characters read less than the page
holds (OCR of a good page reads about as many: its errors change characters, not counts)."""


def _read_chars(results: list[BlockResult]) -> int:
    return sum(len(normalize(r.text or r.html or "")) for r in results)


def prefer_text_layer(state: PageState, max_garbage_ratio: float) -> bool:
    """Replace what OCR read with the text layer when OCR read clearly less than a clean layer
    holds; the decision's reasons say so. True when it did."""
    page, decision = state.rendered, state.decision
    stats = page.stats
    if state.trusted_text or decision is None or state.errors or not stats.chars:
        return False
    if (stats.garbage_chars + stats.unicode_map_errors) / stats.chars > max_garbage_ratio:
        return False
    read = _read_chars(state.results)
    if read >= OCR_SHARE * stats.chars:
        return False
    blocks = group_lines(page.lines, page.height, source="textlayer", page_width=page.width)
    if not blocks:
        return False
    pictures = {r.block.bbox: r for r in state.results if r.block.kind == "figure"}
    ordered = order_blocks(
        [*blocks, *(r.block for r in pictures.values())], page.width, page.height
    )
    results = [
        BlockResult(
            block=block,
            text=join_lines(block.lines, context=page.lines),
            engine="textlayer",
            confidence=1.0,
        )
        if block.source == "textlayer"
        else pictures[block.bbox].model_copy(update={"block": block})
        for block in ordered
    ]
    reason = (
        f"OCR read {read} characters, the text layer holds {stats.chars}: the text layer is "
        "used instead"
    )
    state.results = results
    state.trusted_text = True
    state.decision = decision.model_copy(update={"reasons": (*decision.reasons, reason)})
    return True


def mojibake_warnings(state: PageState) -> list[str]:
    """One warning for each block whose text holds mojibake."""
    notes = []
    for result in state.results:
        count = mojibake_chars(result.text)
        if count:
            notes.append(
                f"block {result.block.order} holds {count} characters of a CJK code page read "
                f"as Latin-1 (mojibake) in its text layer: {result.text[:40]!r}; check it"
            )
    return notes
