"""Answer blocks made the way pagereader keeps block text: headings without their ``#`` marks
(the level apart), lists one item a line, tables on the one table model, formulas as bare
LaTeX. Every dialect builds its blocks here, so a title or a table reads the same whichever
model wrote it."""

from __future__ import annotations

import re
from collections.abc import Callable

from pagereader.engines.dialects.common import (
    BLOCK_WITHOUT_BOX,
    AnswerBlock,
    Frame,
    kind_of,
    warning,
)
from pagereader.engines.dialects.html_blocks import Element, markup_of, split_html
from pagereader.engines.dialects.markdown_blocks import Segment
from pagereader.engines.dialects.repair import repair_table_html
from pagereader.render.otsl import is_otsl, otsl_to_table
from pagereader.text.tables import (
    html_to_table,
    read_markdown_tables,
    table_to_html,
    table_to_markdown,
)
from pagereader.types import BBox, BlockKind

_HEADING = re.compile(r"^\s*(#{1,6})\s+(.*)$", re.S)
_BULLET = re.compile(r"^\s*[-*+•]\s+")
_DELIMITED = (("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$"))
_MATH_ENV = re.compile(r"^\\begin\{(equation|displaymath)\*?\}(.*)\\end\{\1\*?\}$", re.S)


def heading(text: str) -> tuple[str, int | None]:
    """A Markdown heading's text and level (``## Abstract`` -> ``Abstract``, 2); text that
    is no heading comes back as it is, with no level."""
    match = _HEADING.match(text)
    if match is None:
        return text.strip(), None
    return " ".join(match.group(2).split()).strip().rstrip("#").strip(), len(match.group(1))


def list_items(text: str) -> str:
    """A list one item a line, bullet marks removed (the Markdown writer sets its own);
    numbers stay, they are text."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return "\n".join(_BULLET.sub("", line) for line in lines)


def bare_latex(text: str) -> str:
    """A formula's LaTeX without the ``$$``, ``\\[``, ``\\(`` or ``$`` around it."""
    body = text.strip()
    changed = True
    while changed:
        changed = False
        for left, right in _DELIMITED:
            inner = body[len(left) : -len(right)]
            if body.startswith(left) and body.endswith(right) and len(body) > len(left + right):
                body, changed = inner.strip(), True
                break
        env = _MATH_ENV.match(body)
        if env:
            body, changed = env.group(2).strip(), True
    return body


def text_block(
    kind: BlockKind,
    label: str,
    bbox: BBox,
    text: str,
    *,
    located: bool = True,
    level: int | None = None,
) -> AnswerBlock:
    """A block of any kind but table, its text shaped for its kind."""
    if kind == "title":
        text, marks = heading(text)
        level = level or marks
    elif kind == "list":
        text = list_items(text)
    elif kind == "formula":
        text = bare_latex(text)
    else:
        text = text.strip()
    return AnswerBlock(kind=kind, label=label, bbox=bbox, located=located, text=text, level=level)


def table_block(
    label: str, bbox: BBox, content: str, notes: list[str], *, located: bool = True
) -> AnswerBlock:
    """A table block from HTML, OTSL or a Markdown pipe table; a table answer none of these
    read stays a table block holding its text (the verifier's table check sees it)."""
    table = None
    if "<table" in content.lower() or "<tr" in content.lower():
        table = html_to_table(repair_table_html(content, notes))
    elif is_otsl(content):
        table = otsl_to_table(content)
    else:
        found = read_markdown_tables(content)
        table = found[0] if found else None
    if table is None or table.rows == 0:
        return AnswerBlock(
            kind="table", label=label, bbox=bbox, located=located, text=content.strip()
        )
    return AnswerBlock(
        kind="table",
        label=label,
        bbox=bbox,
        located=located,
        text=table_to_markdown(table),
        table=table,
        html=table_to_html(table),
    )


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def read_box(value: str) -> tuple[float, float, float, float] | None:
    """``"x1 y1 x2 y2"`` (spaces or commas) as four numbers; None for anything else."""
    numbers = _NUMBER.findall(value)
    if len(numbers) != 4:
        return None
    x0, y0, x1, y1 = (float(n) for n in numbers)
    return x0, y0, x1, y1


def place(
    box: tuple[float, float, float, float] | None, frame: Frame, what: str, notes: list[str]
) -> tuple[BBox, bool]:
    """A block's box in page units and whether the answer gave one (the whole page if not)."""
    if box is None:
        notes.append(warning(BLOCK_WITHOUT_BOX, f"{what} has no box; the whole page stands in"))
        return frame.page, False
    bbox, problems = frame.to_page(box)
    notes.extend(problems)
    return bbox, True


def element_block(
    source: str,
    element: Element,
    kind: BlockKind,
    label: str,
    bbox: BBox,
    located: bool,
    notes: list[str],
) -> AnswerBlock:
    """The answer block of one HTML element: a table read from its markup, any other kind
    from its text."""
    if kind == "table":
        return table_block(label, bbox, markup_of(source, element), notes, located=located)
    level = element.level if kind == "title" else None
    return text_block(kind, label, bbox, element.text, located=located, level=level)


def html_blocks(
    body: str,
    frame: Frame,
    located: bool,
    documented: frozenset[str],
    label_of: Callable[[Element], str],
    what_of: Callable[[Element, str], str],
    notes: list[str],
) -> list[AnswerBlock]:
    """The blocks of an HTML answer (qwenvl-html, chandra): each element's label (``label_of``)
    gives its kind, its ``data-bbox`` its place when the answer has boxes (``what_of`` names the
    element in a note about its box), the whole page otherwise; elements with nothing read are
    left out, pictures kept."""
    blocks = []
    for element in split_html(body, located=located):
        label = label_of(element)
        box = read_box(element.attrs["data-bbox"]) if "data-bbox" in element.attrs else None
        if located:
            bbox, has_box = place(box, frame, what_of(element, label), notes)
        else:
            bbox, has_box = frame.page, False
        kind, label_notes = kind_of(label, documented, bbox, frame)
        notes.extend(label_notes)
        if kind is None:
            continue
        block = element_block(body, element, kind, label, bbox, has_box, notes)
        if block.text or block.kind == "figure":
            blocks.append(block)
    return blocks


_FORM_KINDS: dict[str, BlockKind] = {
    "heading": "title",
    "text": "text",
    "list": "list",
    "table": "table",
    "formula": "formula",
    "figure": "figure",
}


def segment_blocks(
    segments: list[Segment], label: str, bbox: BBox, located: bool, notes: list[str]
) -> list[AnswerBlock]:
    """Blocks of Markdown segments, each kind by its form, all with one box."""
    blocks = []
    for segment in segments:
        kind = _FORM_KINDS[segment.form]
        if kind == "table":
            blocks.append(table_block(label, bbox, segment.text, notes, located=located))
        else:
            blocks.append(text_block(kind, label, bbox, segment.text, located=located))
    return blocks
