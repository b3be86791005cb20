"""``olmocr``: olmOCR's answer, YAML front matter (``primary_language``,
``is_rotation_valid``, ``rotation_correction``, ``is_table``, ``is_diagram``) then the page as
Markdown (tables as Markdown or HTML, equations LaTeX). No boxes.

The front matter is flat ``key: value`` lines, read here by hand: a YAML library is no part of
the base install. A page the model says is rotated is named in a warning (its text may be
read sideways); the values are kept in ``meta``.
"""

from __future__ import annotations

import re

from pagereader.engines.dialects.common import Frame, PageAnswer, warning
from pagereader.engines.dialects.markdown import boxless_answer, markdown_blocks
from pagereader.engines.dialects.repair import strip_fence

NAME = "olmocr"
NO_FRONT_MATTER = "no-front-matter"
ROTATED = "rotated"

_FRONT = re.compile(r"\A\s*---[ \t]*\n(.*?)\n---[ \t]*(?:\n|\Z)", re.S)
_FIELD = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$")


def front_matter(answer: str) -> tuple[dict[str, str], str]:
    """The front matter's fields (values as written, quotes removed) and the text after it;
    no fields and the whole answer when there is none."""
    match = _FRONT.match(answer)
    if match is None:
        return {}, answer
    fields = {}
    for line in match.group(1).splitlines():
        found = _FIELD.match(line)
        if found:
            fields[found.group(1)] = found.group(2).strip("'\"")
    return fields, answer[match.end() :]


def _rotation(fields: dict[str, str], notes: list[str]) -> None:
    valid = fields.get("is_rotation_valid", "true").lower() not in ("false", "no", "0")
    angle = fields.get("rotation_correction", "0").strip()
    if not valid or angle not in ("0", ""):
        notes.append(warning(ROTATED, f"the model says the page needs turning by {angle} degrees"))


def parse(answer: str, frame: Frame) -> PageAnswer:
    """Read an olmOCR answer: front matter into ``meta``, Markdown into blocks."""
    notes: list[str] = []
    body = strip_fence(answer, notes) if answer.lstrip().startswith("```") else answer
    fields, text = front_matter(body)
    if fields:
        _rotation(fields, notes)
    else:
        notes.append(warning(NO_FRONT_MATTER, "the answer has no front matter"))
    blocks = markdown_blocks(text, frame, notes)
    return boxless_answer(NAME, answer, blocks, notes, **fields)
