"""Text that can be written and shown anywhere: surrogates fixed, control characters removed.

Every text passes here before any output is written, whichever source it came from: each page
result as it is read (any engine, the text layer, a slide's own XML and notes), the finished
document (its file name, errors and deck metadata), and a page that a reviewer's correction
changed (service/reviews/corrections.py), all through :func:`clean_result`:

- PDFium reports a character outside the Basic Multilingual Plane (Gothic, emoji, rare CJK) as
  two UTF-16 code units, and a broken text layer or a JSON answer can carry a lone surrogate;
  Python keeps either inside a ``str``, but UTF-8 (files, JSON, SQLite) refuses them. Pairs are
  joined into the character they encode; a lone surrogate becomes U+FFFD.
- A ToUnicode map (or a model's answer) can put C0/C1 control characters (a NUL makes tools
  call document.md a binary file), noncharacters such as U+FFFE, and bidirectional controls in
  the text. Controls other than tab and line ends, and noncharacters, are removed; a bidi
  embedding, override or isolate is kept only when the same line closes it, so an unpaired
  U+202E cannot reverse everything a viewer shows after it.

What was changed is counted and named, so the output can say so.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, TypeVar

from pydantic import BaseModel

from pagereader.types import DocumentResult, PageResult

_SURROGATE = re.compile("[\ud800-\udfff]")
_NONCHARACTERS = "".join(
    f"{chr(plane + 0xFFFE)}{chr(plane + 0xFFFF)}" for plane in range(0, 0x110000, 0x10000)
)
_CONTROL = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef" + re.escape(_NONCHARACTERS) + "]"
)
_BIDI_OPEN = {"\u202a": "\u202c", "\u202b": "\u202c", "\u202d": "\u202c", "\u202e": "\u202c"}
_BIDI_OPEN |= {"\u2066": "\u2069", "\u2067": "\u2069", "\u2068": "\u2069"}
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
_SUSPECT = re.compile(f"{_SURROGATE.pattern}|{_CONTROL.pattern}|{_BIDI.pattern}")
REPLACEMENT = "\ufffd"
Model = TypeVar("Model", bound=BaseModel)
Result = TypeVar("Result", PageResult, DocumentResult)

ENGINE_TEXT = "a text layer mapping glyphs to them, or an engine's answer"
DOCUMENT_TEXT = "the file's name, an error's message or the file's own metadata"
CORRECTION_TEXT = "a reviewer's correction"
"""Where removed characters came from, as a note says (:meth:`Cleaning.notes`)."""


def clean_text(text: str) -> tuple[str, int]:
    """``text`` with surrogate pairs joined and lone surrogates replaced; and how many were."""
    if not _SURROGATE.search(text):
        return text, 0
    fixed = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return fixed, fixed.count(REPLACEMENT) - text.count(REPLACEMENT)


def _balanced_bidi(line: str, removed: Counter[str]) -> str:
    """``line`` without the bidi controls it does not both open and close."""
    stack: list[tuple[int, str]] = []
    drop: set[int] = set()
    for match in _BIDI.finditer(line):
        at, ch = match.start(), match.group()
        if ch in _BIDI_OPEN:
            stack.append((at, _BIDI_OPEN[ch]))
        elif stack and stack[-1][1] == ch:
            stack.pop()
        else:
            drop.add(at)
    drop.update(at for at, _ in stack)
    for at in drop:
        removed[line[at]] += 1
    return "".join(ch for at, ch in enumerate(line) if at not in drop)


def strip_controls(text: str) -> tuple[str, Counter[str]]:
    """``text`` without control characters, noncharacters and unpaired bidi controls; and
    how many of each character were removed."""
    removed: Counter[str] = Counter(_CONTROL.findall(text))
    text = _CONTROL.sub("", text)
    if _BIDI.search(text):
        text = "\n".join(_balanced_bidi(line, removed) for line in text.split("\n"))
    return text, removed


class Cleaning:
    """What cleaning a result changed: lone surrogates replaced, characters removed."""

    def __init__(self) -> None:
        self.lone_surrogates = 0
        self.removed: Counter[str] = Counter()

    def text(self, value: str) -> str:
        if not _SUSPECT.search(value):
            return value
        value, lone = clean_text(value)
        self.lone_surrogates += lone
        value, removed = strip_controls(value)
        self.removed.update(removed)
        return value

    def notes(self, origin: str = ENGINE_TEXT) -> tuple[str, ...]:
        """One line for each kind of change, naming the code points removed and ``origin``,
        where they came from."""
        notes = []
        if self.lone_surrogates:
            notes.append(
                "lone surrogate code points in the text (a broken text layer) replaced with U+FFFD"
            )
        if self.removed:
            named = ", ".join(f"U+{ord(ch):04X}" for ch in sorted(self.removed)[:8])
            more = ", ..." if len(self.removed) > 8 else ""
            notes.append(
                f"control or format characters removed from the text ({named}{more}): {origin}"
            )
        return tuple(notes)


def _walk(value: Any, cleaning: Cleaning) -> Any:
    if isinstance(value, str):
        return cleaning.text(value)
    if isinstance(value, dict):
        return {_walk(k, cleaning): _walk(v, cleaning) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_walk(v, cleaning) for v in value)
    return value


def _needs_cleaning(value: Any) -> bool:
    if isinstance(value, str):
        return _SUSPECT.search(value) is not None
    if isinstance(value, dict):
        return any(_needs_cleaning(k) or _needs_cleaning(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_needs_cleaning(v) for v in value)
    return False


def clean_model(model: Model) -> tuple[Model, Cleaning]:
    """``model`` with every string cleaned (surrogates fixed, controls removed), and what was
    changed; the same object when nothing needed it."""
    cleaning = Cleaning()
    data = model.model_dump()
    if not _needs_cleaning(data):
        return model, cleaning
    return type(model).model_validate(_walk(data, cleaning)), cleaning


def clean_result(result: Result, origin: str = ENGINE_TEXT) -> tuple[Result, tuple[str, ...]]:
    """``result`` with every string cleaned (:func:`clean_model`) and a warning for each kind
    of change, so the output says what was removed and from where; and those warnings."""
    cleaned, cleaning = clean_model(result)
    notes = cleaning.notes(origin)
    if notes:
        cleaned = cleaned.model_copy(update={"warnings": cleaned.warnings + notes})
    return cleaned, notes
