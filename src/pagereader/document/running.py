"""Running headers and footers, decided over the whole document.

A page's layout names a block ``header`` or ``footer`` from its place alone (the layout
model's label, a line in the top or bottom band), and such a block is left out of the Markdown.
Its place is not enough: a statute's last body line just above the footer, a table's last row
at a slide's bottom edge and a scanned slide's top line sit there too. Only the whole document
shows what runs: a header or footer is a block whose text (the same, or the same with another
number) is at about the same place on another page, or a page number; every other block the
layout placed there is body text and stays in the Markdown in its reading order. A slide deck
shows its slide number as part of the slide (its own text and pdftotext keep it), so there the
number stays, and a slide's line no other slide repeats is the slide's text even when one
slide is all there is.

One page read alone (a one-page document, or one page chosen from many) shows no repetition
either way: there the layout's header or footer stays out of the Markdown, as a page cut from a
journal wants its running title out, but is flagged for review, so a body line there is never
dropped unseen. Every block decided here says why in its verdict's findings, so nothing leaves
the Markdown without document.json saying so.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from pagereader.layout.block_kinds import is_page_number
from pagereader.render.markdown import page_markdown
from pagereader.text.chars import char_consistency, normalize
from pagereader.types import BlockResult, Finding, PageResult, Verdict

FURNITURE_KINDS = frozenset({"header", "footer"})
CHECK = "running"
"""The findings' check name: what decided a header's or footer's place in the Markdown."""
PLACE = 0.05
"""Share of the page height two running lines' centres may differ by (a scan shifts)."""
ACROSS = 0.15
"""Share of the page width two running lines' centres may differ by, as printed or mirrored
(a book's left and right pages)."""
SAME_TEXT = 0.8
"""Character consistency above which two reads are one running text (OCR misreads a letter)."""
PICTURE_SOURCES = frozenset({"pdf-image", "pptx-picture", "pptx-object", "docx-picture"})
"""A picture in the margin (a logo) is furniture of its own: the pictures pass decides it."""
_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True)
class _Line:
    """A block's text as compared across pages: the page, the page whose result it reuses
    (itself when none: a copy of a page repeats all of it and shows nothing), its text with
    every number as ``#``, and its centre as shares of the page's width and height."""

    page: int
    original: int
    key: str
    x: float
    y: float


_PAGE_KEY = "\x00page-number"


def _line(page: PageResult, result: BlockResult) -> _Line:
    x0, y0, x1, y1 = result.block.bbox
    # any page number repeats any other at its place: "Page 1 of 3" runs on as "第 2 頁"
    key = (
        _PAGE_KEY
        if is_page_number(result.text)
        else _NUMBER.sub("#", normalize(result.text, markdown=False).casefold())
    )
    width, height = page.width or 1.0, page.height or 1.0
    original = page.duplicate_of if page.duplicate_of_source is None else None
    centre = ((x0 + x1) / 2 / width, (y0 + y1) / 2 / height)
    return _Line(page.index, original or page.index, key, *centre)


def _same(a: _Line, b: _Line) -> bool:
    if abs(a.y - b.y) > PLACE:
        return False
    if abs(a.x - b.x) > ACROSS and abs(a.x - (1 - b.x)) > ACROSS:
        return False
    if a.key == b.key:
        return True
    return min(len(a.key), len(b.key)) >= 4 and char_consistency(a.key, b.key) >= SAME_TEXT


def _judged(result: BlockResult) -> bool:
    return (
        result.block.kind in FURNITURE_KINDS
        and result.block.source not in PICTURE_SOURCES
        and bool(result.text.strip())
    )


def _noted(result: BlockResult, finding: Finding, **update: object) -> BlockResult:
    outcome = "review" if finding.severity != "info" else result.verdict.outcome
    verdict = Verdict(outcome=outcome, findings=(*result.verdict.findings, finding))
    return result.model_copy(update={"verdict": verdict, **update})


def _as_body(result: BlockResult, message: str) -> BlockResult:
    block = result.block.model_copy(update={"kind": "text"})
    return _noted(result, Finding(check=CHECK, message=message, severity="info"), block=block)


class _Places:
    """The document's lines by height on the page, to find a line's repeats among the few at
    its height rather than among all."""

    def __init__(self, lines: Sequence[_Line]) -> None:
        self._rows: dict[int, list[_Line]] = defaultdict(list)
        for line in lines:
            self._rows[int(line.y / PLACE)].append(line)

    def repeats(self, line: _Line) -> list[int]:
        """The other pages holding ``line`` at its place, in page order."""
        row = int(line.y / PLACE)
        near = (o for r in (row - 1, row, row + 1) for o in self._rows.get(r, ()))
        return sorted({o.page for o in near if o.original != line.original and _same(line, o)})


def _decide(result: BlockResult, repeated: Sequence[int], single: bool, deck: bool) -> BlockResult:
    kind = result.block.kind
    if is_page_number(result.text):
        if deck:
            return _as_body(result, "a slide number: kept, as the slide shows it")
        if single or repeated:
            note = "a page number: running furniture, left out of the Markdown"
            return _noted(result, Finding(check=CHECK, message=note, severity="info"))
        note = (
            f"a number in the page's {kind} band that no other page repeats: left out of the"
            " Markdown as a page number; check it is no body text"
        )
        return _noted(result, Finding(check=CHECK, message=note, severity="warn"))
    if repeated:
        shown = ", ".join(str(p) for p in repeated[:5]) + (" ..." if len(repeated) > 5 else "")
        note = f"running {kind}: the same text at this place on page(s) {shown}"
        return _noted(result, Finding(check=CHECK, message=note, severity="info"))
    if single and not deck:
        note = (
            f"placed as a {kind} on the only page read, where nothing can repeat: left out of"
            " the Markdown; check it is no body text"
        )
        return _noted(result, Finding(check=CHECK, message=note, severity="warn"))
    return _as_body(result, f"placed as a {kind}, but no other page repeats it: body text")


def running_furniture(pages: Sequence[PageResult], mark_review: bool) -> list[PageResult]:
    """``pages`` with each text block the layout placed as a header or footer decided over
    the document (see the module's docstring); a page whose Markdown changes has it written
    anew."""
    places = _Places([_line(p, r) for p in pages for r in p.blocks if r.text.strip()])
    single = len(pages) <= 1
    deck = bool(pages) and all(p.slide is not None or p.width > p.height for p in pages)
    out = []
    for page in pages:
        blocks = tuple(
            _decide(r, places.repeats(_line(page, r)), single, deck) if _judged(r) else r
            for r in page.blocks
        )
        if blocks == page.blocks:
            out.append(page)
            continue
        update: dict[str, object] = {"blocks": blocks}
        if any(
            new.block.kind != old.block.kind or new.verdict.outcome != old.verdict.outcome
            for new, old in zip(blocks, page.blocks, strict=True)
        ):
            update["markdown"] = page_markdown(blocks, page.notes, mark_review)
        out.append(page.model_copy(update=update))
    return out
