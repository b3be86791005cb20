"""``qwenvl-html``: Qwen-VL's "QwenVL HTML" document parse.

One element per line, each with ``data-bbox="x1 y1 x2 y2"``: headings as ``<h1>``-``<h6>``,
paragraphs ``<p>``, tables ``<table>``, pictures ``<div class="image">`` (holding an
``<img>`` with the same box), formulas ``<div class="formula">``. Qwen2.5-VL writes absolute
pixels of its resized input, Qwen3-VL a 0-1000 grid: the frame says which. The answer often
comes in a ```` ```html ```` fence; a model that ignores the format writes an ordinary web page
without boxes, read here block by block with the whole page as every box.
"""

from __future__ import annotations

from pagereader.engines.dialects.build import html_blocks
from pagereader.engines.dialects.common import (
    NO_BOXES,
    NOT_IN_DIALECT,
    PREAMBLE,
    Frame,
    PageAnswer,
    warning,
)
from pagereader.engines.dialects.html_blocks import HAS_BOX, Element
from pagereader.engines.dialects.repair import cut_open_tag, strip_fence

NAME = "qwenvl-html"

_TAG_LABELS = {
    **{f"h{n}": "title" for n in range(1, 7)},
    "p": "text",
    "div": "text",
    "span": "text",
    "blockquote": "text",
    "address": "text",
    "pre": "code",
    "ul": "list",
    "ol": "list",
    "li": "list-item",
    "table": "table",
    "img": "image",
    "figure": "figure",
    "figcaption": "caption",
    "caption": "caption",
    "header": "header",
    "footer": "footer",
}
_CLASS_LABELS = {
    "image": "image",
    "chart": "chart",
    "formula": "formula",
    "chemical-formula": "formula",
    "music-sheet": "image",
    "caption": "caption",
    "page-number": "page-number",
    "number": "page-number",
    "header": "header",
    "footer": "footer",
}
DOCUMENTED = frozenset(_TAG_LABELS.values()) | frozenset(_CLASS_LABELS.values())


def _label(element: Element) -> str:
    """The element's label: its class where it has one, else what its tag stands for."""
    css = element.attrs.get("class", "").strip().lower().replace("_", "-").replace(" ", "-")
    if css:
        return _CLASS_LABELS.get(css, css)
    return _TAG_LABELS.get(element.tag, element.tag)


def parse(answer: str, frame: Frame) -> PageAnswer:
    """Read a QwenVL HTML answer onto the page."""
    notes: list[str] = []
    body = strip_fence(answer, notes)
    start = body.find("<")
    if start < 0:
        notes.append(warning(NOT_IN_DIALECT, "no HTML in the answer"))
        return PageAnswer(dialect=NAME, raw=answer, parsed=False, warnings=tuple(notes))
    if body[:start].strip():
        notes.append(warning(PREAMBLE, f"words before the HTML dropped: {body[:start][:60]!r}"))
    body = body[start:]
    body = cut_open_tag(body, notes)
    located = bool(HAS_BOX.search(body))
    if not located:
        notes.append(warning(NO_BOXES, "no data-bbox in the answer; every block is the page"))
    blocks = html_blocks(
        body,
        frame,
        located,
        DOCUMENTED,
        lambda element: _label(element) if element.tag else "text",
        lambda element, _: f"<{element.tag}>",
        notes,
    )
    return PageAnswer(
        dialect=NAME,
        raw=answer,
        parsed=any(b.text or b.located for b in blocks),
        blocks=tuple(blocks),
        warnings=tuple(notes),
        located=located,
    )
