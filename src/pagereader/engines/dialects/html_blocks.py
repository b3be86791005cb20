"""HTML answers split into elements with their text, read with the standard library's parser.

A located answer (QwenVL HTML, Chandra) gives one element per outermost tag that carries
``data-bbox``; an answer with no box at all (a model that wrote an ordinary web page) gives
one element per outermost block tag (heading, paragraph, list, table, picture), with loose
text between them as elements of its own. Text keeps line breaks where the markup breaks
lines (``<br>``, paragraphs, list items, rows) and inline math as ``$...$``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

_VOID = frozenset({"img", "br", "hr", "input", "meta", "link", "area", "col", "source", "wbr"})
_BREAKS = frozenset(
    {"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "table"}
    | {"section", "article", "header", "footer", "nav", "main", "pre", "blockquote", "figure"}
    | {"figcaption", "caption", "address", "dd", "dt", "hr"}
)
_CELLS = frozenset({"td", "th"})
_HIDDEN = frozenset({"head", "script", "style", "title", "template"})
BLOCK_TAGS = frozenset(
    {"h1", "h2", "h3", "h4", "h5", "h6", "p", "ul", "ol", "table", "img", "figure", "pre"}
    | {"blockquote", "address", "figcaption", "caption", "dl"}
)
"""Tags that make a block of an answer without boxes."""
_HEADINGS = re.compile(r"h([1-6])")
HAS_BOX = re.compile(r"\bdata-bbox\s*=", re.I)


@dataclass
class Element:
    """One element of an answer: its tag and attributes, its source markup, its text, and
    the level of the first heading tag in it."""

    tag: str
    attrs: dict[str, str]
    start: int
    end: int = -1
    parts: list[str] = field(default_factory=list)
    level: int | None = None

    @property
    def text(self) -> str:
        lines = (" ".join(line.split()) for line in "".join(self.parts).split("\n"))
        return "\n".join(line for line in lines if line)


class _Splitter(HTMLParser):
    def __init__(self, source: str, located: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.located = located
        self.found: list[Element] = []
        self._line_starts = [0] + [m.end() for m in re.finditer(r"\n", source)]
        self._stack: list[str] = []
        self._open: Element | None = None
        self._depth_at_open = 0
        self._hidden = 0
        self._math = 0

    def _offset(self) -> int:
        line, col = self.getpos()
        return self._line_starts[line - 1] + col

    def _opens(self, tag: str, attrs: dict[str, str]) -> bool:
        if self.located:
            return "data-bbox" in attrs
        return tag in BLOCK_TAGS

    def _loose(self) -> Element:
        """The element collecting text outside any block (answers without boxes)."""
        if self._open is None:
            self._open = Element(tag="", attrs={}, start=self._offset())
            self._depth_at_open = -1
        return self._open

    def _close_open(self, end: int) -> None:
        if self._open is not None:
            self._open.end = end
            if self._open.tag or self._open.text:
                self.found.append(self._open)
        self._open = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag in _HIDDEN:
            self._hidden += 1
        if tag == "math":
            self._math += 1
            self._text_part("$")
        if self._hidden:
            self._push(tag)
            return
        if self._opens(tag, found) and (self._open is None or not self._open.tag):
            self._close_open(self._offset())
            self._open = Element(tag=tag, attrs=found, start=self._offset())
            self._depth_at_open = len(self._stack)
        if self._open is not None:
            heading = _HEADINGS.fullmatch(tag)
            if heading and self._open.level is None:
                self._open.level = int(heading.group(1))
            if tag in _BREAKS:
                self._open.parts.append("\n")
            elif tag in _CELLS:
                self._open.parts.append(" ")
        self._push(tag)
        if tag in _VOID:
            self.handle_endtag(tag)

    def _push(self, tag: str) -> None:
        if tag not in _VOID:
            self._stack.append(tag)

    def _text_part(self, text: str) -> None:
        if self._hidden:
            return
        target = self._open if self._open is not None else None
        if target is None and not self.located:
            target = self._loose()
        if target is not None:
            target.parts.append(text)

    def handle_endtag(self, tag: str) -> None:
        if tag == "math" and self._math:
            self._math -= 1
            self._text_part("$")
        if tag not in _VOID:
            if tag not in self._stack:
                return
            while self._stack and self._stack.pop() != tag:
                pass
        if tag in _HIDDEN:
            self._hidden = max(0, self._hidden - 1)
            return
        if self._open is None:
            return
        if tag in _BREAKS:
            self._open.parts.append("\n")
        if self._open.tag and len(self._stack) <= self._depth_at_open:
            end = self.source.find(">", self._offset())
            self._close_open(len(self.source) if end < 0 else end + 1)
        elif not self._open.tag and tag not in _CELLS and tag in _BREAKS:
            self._close_open(self._offset())

    def handle_data(self, data: str) -> None:
        if data.strip() or (self._open is not None and self._open.parts):
            self._text_part(data)

    def finish(self) -> None:
        self.close()
        self._close_open(len(self.source))


def split_html(source: str, *, located: bool) -> list[Element]:
    """The elements of an HTML answer in order; ``located`` splits on ``data-bbox``."""
    splitter = _Splitter(source, located)
    splitter.feed(source)
    splitter.finish()
    return splitter.found


def markup_of(source: str, element: Element) -> str:
    """The source markup of one element."""
    return source[element.start : element.end if element.end >= 0 else len(source)]
