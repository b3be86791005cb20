"""Repairs of malformed answers, each one named in a warning: a code fence around the answer,
words before it, a JSON list with trailing commas or without its closing bracket (an answer
cut at the token limit ends inside its last element), rows opened twice in a table.

The JSON repair scans the text once, minding strings, so a comma or bracket inside a text
value is never touched; then the standard library's json reads the result.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pagereader.engines.dialects.common import (
    CODE_FENCE,
    INCOMPLETE_ELEMENT,
    NESTED_TR,
    PREAMBLE,
    REPEATED,
    TRAILING_COMMAS,
    UNCLOSED_LIST,
    warning,
)

_FENCE_OPEN = re.compile(r"^[ \t]*```[ \t]*([\w+-]*)[ \t]*\n", re.M)
_FENCE_CLOSE = re.compile(r"^[ \t]*```[ \t]*$", re.M)
_NESTED_TR = re.compile(r"<tr\b[^>]*>(\s*<tr\b[^>]*>)+", re.I)
_DOUBLE_TR_END = re.compile(r"</tr>(\s*</tr>)+", re.I)


def strip_fence(answer: str, notes: list[str]) -> str:
    """The body of the first fenced block when the answer has one. It ends at a bare ```` ```
    ```` line, at the next opening fence (an answer printed twice) or at the end (an unclosed
    fence); words before it and whatever follows it are dropped and named."""
    opening = _FENCE_OPEN.search(answer)
    if opening is None:
        return answer
    lang = opening.group(1) or "no language"
    notes.append(warning(CODE_FENCE, f"answer wrapped in a ``` fence ({lang}); fence removed"))
    before = answer[: opening.start()].strip()
    if before:
        notes.append(warning(PREAMBLE, f"words before the answer dropped: {before[:60]!r}"))
    rest = answer[opening.end() :]
    closing = _FENCE_CLOSE.search(rest)
    again = _FENCE_OPEN.search(rest)
    if again is not None and (closing is None or again.start() < closing.start()):
        notes.append(
            warning(REPEATED, "a second fenced answer followed the first; only the first kept")
        )
        return rest[: again.start()]
    if closing is None:
        return rest
    after = rest[closing.end() :]
    if after.strip():
        kind = REPEATED if _FENCE_OPEN.search(after) else PREAMBLE
        notes.append(warning(kind, f"words after the fenced answer dropped: {after[:60]!r}"))
    return rest[: closing.start()]


def cut_open_tag(markup: str, notes: list[str]) -> str:
    """Markup without a tag left open at its end (an answer cut inside ``<img src="...``)."""
    last = markup.rfind("<")
    if last < 0 or ">" in markup[last:]:
        return markup
    notes.append(
        warning(INCOMPLETE_ELEMENT, f"a tag cut off at the end dropped: {markup[last:][:40]!r}")
    )
    return markup[:last]


def _scan_list(text: str) -> tuple[list[int], list[int], bool]:
    """From a text opening with ``[``: the offsets of trailing commas (a comma whose next
    non-space character closes an object or list), the offsets just past each complete
    top-level element, and whether the list closes."""
    commas: list[int] = []
    ends: list[int] = []
    depth, in_string, escape, pending = 0, False, False, -1
    for i, ch in enumerate(text):
        if in_string:
            if escape:
                escape = False
            elif ch == "\\":
                escape = True
            elif ch == '"':
                in_string = False
                if depth == 1:
                    ends.append(i + 1)
            continue
        if ch.isspace():
            continue
        if ch in "}]" and pending >= 0:
            commas.append(pending)
        pending = -1
        if ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
            if depth == 0:
                return commas, ends, True
            if depth == 1:
                ends.append(i + 1)
        elif ch == ",":
            pending = i
    return commas, ends, False


def read_json_list(answer: str, notes: list[str]) -> list[Any] | None:
    """The JSON list an answer holds, repaired where a model leaves it malformed; a single
    object is a list of one. None when no list can be read."""
    text = answer.strip()
    start = min((i for i in (text.find("["), text.find("{")) if i >= 0), default=-1)
    if start < 0:
        return None
    if start > 0:
        notes.append(warning(PREAMBLE, f"words before the JSON dropped: {text[:start][:60]!r}"))
    text = text[start:]
    if text.startswith("{"):
        text = f"[{text}"
    commas, ends, closed = _scan_list(text)
    if commas:
        notes.append(
            warning(TRAILING_COMMAS, f"{len(commas)} trailing commas removed (not valid JSON)")
        )
        for offset in reversed(commas):
            text = text[:offset] + " " + text[offset + 1 :]
    if closed:
        cut = text.rfind("]") + 1
        if text[cut:].strip():
            notes.append(warning(PREAMBLE, f"words after the JSON dropped: {text[cut:][:60]!r}"))
        text = text[:cut]
    else:
        notes.append(warning(UNCLOSED_LIST, "the JSON list has no closing ']'; closed"))
        body = text[: ends[-1]] if ends else "["
        if text[len(body) :].strip(" \n\t,"):
            notes.append(warning(INCOMPLETE_ELEMENT, "an incomplete last element was dropped"))
        text = body.rstrip().rstrip(",") + "]"
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, list) else [value]


def repair_table_html(markup: str, notes: list[str]) -> str:
    """A table's HTML with rows opened (or closed) twice in a row made one."""
    fixed, opened = _NESTED_TR.subn(lambda m: m.group(0)[: m.group(0).find(">") + 1], markup)
    fixed, closed = _DOUBLE_TR_END.subn("</tr>", fixed)
    if opened or closed:
        notes.append(
            warning(NESTED_TR, f"{opened + closed} nested <tr><tr> (or </tr></tr>) made one")
        )
    return fixed
