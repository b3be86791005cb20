"""``deepseek-ocr``: DeepSeek-OCR's grounded Markdown. Each region opens with
``<|ref|>label<|/ref|><|det|>[[x1, y1, x2, y2]]<|/det|>`` on a line of its own, its text
(Markdown, tables as HTML, math as ``\\(...\\)``) following; coordinates are 0-999 of the
page image. A runtime that drops special tokens leaves ``label[[x1, y1, x2, y2]]`` instead;
both forms are read.

Found in real answers: a table's region line comes right before its caption's, the table's
HTML after the caption text (moved back to the table, and named); text before the first
region line (a block with no box, named).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pagereader.engines.dialects.build import place, segment_blocks, table_block, text_block
from pagereader.engines.dialects.common import (
    NO_BOXES,
    NOT_IN_DIALECT,
    TABLE_AFTER_CAPTION,
    AnswerBlock,
    Frame,
    PageAnswer,
    fold_label,
    kind_of,
    warning,
)
from pagereader.engines.dialects.markdown_blocks import split_markdown

NAME = "deepseek-ocr"

LABELS = (
    "title",
    "sub_title",
    "text",
    "image",
    "image_caption",
    "table",
    "table_caption",
    "table_footnote",
    "equation",
    "footnote",
    "header",
    "footer",
    "page_number",
    "figure_title",
)
"""The region labels DeepSeek-OCR writes in its grounded Markdown."""
DOCUMENTED = frozenset(fold_label(label) for label in LABELS)

_REGION = re.compile(
    r"^[ \t]*(?:<\|ref\|>(?P<ref>.*?)<\|/ref\|>\s*<\|det\|>(?P<det>.*?)<\|/det\|>"
    r"|(?P<bare>[A-Za-z_]+)(?P<bare_det>\[\[[-\d.,\s\[\]]*\]\]))[ \t]*$",
    re.M,
)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_TABLE = re.compile(r"<table\b", re.I)


@dataclass
class _Region:
    label: str
    box: tuple[float, float, float, float] | None
    text: str


def _union(det: str) -> tuple[float, float, float, float] | None:
    """The box around every ``[x1, y1, x2, y2]`` of a region (one region may hold several)."""
    numbers = [float(n) for n in _NUMBER.findall(det)]
    if not numbers or len(numbers) % 4:
        return None
    boxes = [numbers[i : i + 4] for i in range(0, len(numbers), 4)]
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _regions(answer: str) -> list[_Region]:
    """The regions in order; text before the first region line is one without a label."""
    found: list[_Region] = []
    matches = list(_REGION.finditer(answer))
    head = answer[: matches[0].start()] if matches else answer
    if head.strip():
        found.append(_Region("", None, head))
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(answer)
        label = match.group("ref") if match.group("ref") is not None else match.group("bare")
        det = match.group("det") if match.group("det") is not None else match.group("bare_det")
        found.append(_Region(label.strip(), _union(det), answer[match.end() : end]))
    return found


def _move_tables(regions: list[_Region], notes: list[str]) -> None:
    """A table's HTML written after the next region's text goes back to the empty table."""
    for i, region in enumerate(regions[:-1]):
        if fold_label(region.label) != "table" or region.text.strip():
            continue
        after = regions[i + 1]
        found = _TABLE.search(after.text)
        if found and fold_label(after.label) != "table":
            region.text, after.text = after.text[found.start() :], after.text[: found.start()]
            notes.append(
                warning(TABLE_AFTER_CAPTION, f"the table's HTML followed the {after.label}")
            )


def _region_blocks(region: _Region, frame: Frame, notes: list[str]) -> list[AnswerBlock]:
    what = f"the {region.label} region" if region.label else "text before the first region"
    bbox, located = place(region.box, frame, what, notes)
    if not region.label:
        return segment_blocks(split_markdown(region.text), "text", bbox, located, notes)
    kind, label_notes = kind_of(region.label, DOCUMENTED, bbox, frame)
    notes.extend(label_notes)
    text = re.sub(r"</?center>", "", region.text).strip()
    if kind is None or (not text and kind != "figure"):
        return []
    if kind == "table":
        return [table_block(region.label, bbox, text, notes, located=located)]
    level = 1 if fold_label(region.label) == "title" else None
    return [text_block(kind, region.label, bbox, text, located=located, level=level)]


def parse(answer: str, frame: Frame) -> PageAnswer:
    """Read a DeepSeek-OCR grounded answer onto the page."""
    notes: list[str] = []
    regions = _regions(answer)
    if not any(r.label for r in regions):
        notes.append(warning(NO_BOXES, "no region lines in the answer; read as Markdown"))
    _move_tables(regions, notes)
    blocks = [block for region in regions for block in _region_blocks(region, frame, notes)]
    if not blocks:
        notes.append(warning(NOT_IN_DIALECT, "nothing readable in the answer"))
    return PageAnswer(
        dialect=NAME,
        raw=answer,
        parsed=bool(blocks),
        blocks=tuple(blocks),
        warnings=tuple(notes),
        located=any(b.located for b in blocks),
    )
