"""A document's headings and articles as a tree, from its pages' blocks in reading order.

A block that opens a heading (numbering.py) closes every open node at its level or deeper and
opens its own; a block that opens an article does the same at the article's level; every other
body block belongs to the article open above it (running headers, footers, page numbers and
pictures belong to none). An article's text runs across page and block breaks: when a block
does not end its sentence, the next one goes on from it (without a space in Chinese, with one
between words elsewhere) unless it opens an item of its own (``①``, ``一、``), so no
paragraph is cut at a page break.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from pagereader.layout.line_text import join_lines
from pagereader.structure.numbering import (
    ITEM,
    LEVELS,
    Marker,
    Opening,
    cited_articles,
    cites_on,
    follows,
    item_marker,
    node_id,
    opening,
)
from pagereader.text.chars import ends_sentence
from pagereader.types import BlockResult, NodeKind, PageResult, StructureNode, TextLine

T = TypeVar("T")
BODY_KINDS = frozenset({"text", "title", "list", "caption", "table"})
"""Kinds of blocks that hold a document's own text (not its running header or footer)."""
MIN_ARTICLES = 2
"""A document numbers its articles when at least this many blocks open one; a lone
``Article 5`` in a report is a sentence, not a statute."""


@dataclass
class _Part:
    """A paragraph of a node's text and the blocks it was read from."""

    text: str
    blocks: list[tuple[int, int]]


@dataclass
class _Open:
    """A node being built: what opened it and what has been read into it since."""

    opened: Opening
    parts: list[_Part] = field(default_factory=list)
    pages: list[int] = field(default_factory=list)
    blocks: list[tuple[int, int]] = field(default_factory=list)
    children: list[StructureNode] = field(default_factory=list)

    def add(self, text: str, page: int, order: int) -> None:
        if page not in self.pages:
            self.pages.append(page)
        self.blocks.append((page, order))
        if not text:
            return
        last = self.parts[-1] if self.parts else None
        if last is not None and not ends_sentence(last.text) and not ITEM.match(text):
            last.text = carry(last.text, text)
            if (page, order) not in last.blocks:
                last.blocks.append((page, order))
        else:
            self.parts.append(_Part(text, [(page, order)]))


def carry(before: str, after: str) -> str:
    """A paragraph broken by a page or block break, whole again, joined as the lines of one
    block are (no space in Chinese, a hyphen at the break kept for a compound)."""
    return join_lines([TextLine(text=before, bbox=_NOWHERE), TextLine(text=after, bbox=_NOWHERE)])


_NOWHERE = (0.0, 0.0, 0.0, 0.0)
_CITES_PART = re.compile(r"^(?:제\s*\d+\s*[항호]|第)")
"""Text after an article number that names a part of that article (``제4조제1항``): a
reference, wherever its line starts."""


_CJK_LABELS = ("第", "제")
"""Labels of the statutes whose article numbers :func:`_opens` reads by sequence and title; an
English ``Article 6 hereof`` wrapped to a line's start stays a reference (numbering.cites_on
knows no English words that go on from a number)."""


def block_parts(block: BlockResult, after: str | None = None) -> list[str]:
    """A block's text, cut before each later line that opens a node of its own: OCR reads a
    title with the first chapter heading, or a statute's preamble with its first article, as
    one block. A later line opens one when it is a heading, an article's label alone on its
    line (the code-book style), or an article after a line that ended its sentence; a line
    that merely starts with an article number is a cross-reference wrapped to the line's start
    as often as it is an article, unless something else says it is one (:func:`_opens`). The
    block's layout lines are used when its text is theirs (an embedded engine's reading, joined
    as the page joins them); a served model's answer is cut at its own line breaks. ``after``
    is the number of the article open before the block (:func:`body_parts`)."""
    text = (block.text or "").strip()
    lines = [line for line in block.block.lines if line.text.strip()]
    if not lines or _bare("".join(line.text for line in lines)) != _bare(text):
        return ["\n".join(part) for part in _cut(text.split("\n"), str, None, after)]
    cut = _cut(lines, lambda line: line.text.strip(), _outdented, after)
    return [join_lines(part) for part in cut]


def _cut(
    lines: Sequence[T],
    text_of: Callable[[T], str],
    outdented: Callable[[T, T], bool] | None,
    after: str | None,
) -> list[list[T]]:
    parts: list[list[T]] = [[]]
    current = after
    for index, line in enumerate(lines):
        opened = opening(text_of(line))
        if index and opened is not None:
            before = lines[index - 1]
            in_list = any(ITEM.match(text_of(earlier)) for earlier in parts[-1])
            left = outdented is not None and in_list and outdented(line, before)
            if _opens(opened, text_of(before), current, left):
                parts.append([])
            else:
                opened = None
        if opened is not None and opened.kind == "article":
            current = opened.number
        parts[-1].append(line)
    return parts


def _opens(opened: Opening, before: str, current: str | None, left: bool) -> bool:
    """Whether a line that starts with a heading or an article number opens it rather than
    going on from ``before``. A heading always does. An article does when its label is alone
    on the line, when ``before`` ended its sentence, or when it leaves the text column after a
    list (the label column's layout). Otherwise (no label column, and a subparagraph ending in
    ``、`` or nothing, or a ``。`` the OCR dropped) it does when its number is the next after
    the article open above it (a cross-reference wrapped to a line's start names the next
    article almost never) or a title follows it (``제4조(신고)``; not a reference's own aside,
    ``제5조(제7조에서 준용하는 경우를 포함한다)``), unless the text after the number goes on as
    a reference does (numbering.cites_on: ``規定``, ``에 따라``, ``제1항``). Chinese and Korean
    labels only."""
    if opened.kind != "article" or not opened.rest or ends_sentence(before):
        return True
    if left and not _CITES_PART.match(opened.rest):
        return True
    if not opened.label.startswith(_CJK_LABELS):
        return False
    titled = bool(opened.title) and not cited_articles(opened.title)
    return (titled or follows(opened.number, current)) and not cites_on(opened.rest)


def _outdented(line: TextLine, before: TextLine) -> bool:
    """True when ``line`` starts left of ``before`` by more than a line height: it leaves the
    column ``before`` was written in."""
    height = max(line.bbox[3] - line.bbox[1], 1.0)
    return before.bbox[0] - line.bbox[0] > height


def _bare(text: str) -> str:
    return "".join(text.split())


def body_parts(pages: Sequence[PageResult]) -> list[tuple[PageResult, int, str]]:
    """The document's own text in reading order, as (page, block order, part) with each
    block cut where a later line opens a node (:func:`block_parts`), knowing the article the
    blocks before it opened."""
    found: list[tuple[PageResult, int, str]] = []
    current: str | None = None
    for page in pages:
        for block in page.blocks:
            if block.block.kind not in BODY_KINDS:
                continue
            for part in block_parts(block, current):
                opened = opening(part)
                if opened is not None and opened.kind == "article":
                    current = opened.number
                found.append((page, block.block.order, part))
    return found


def parts_by_block(pages: Sequence[PageResult]) -> dict[tuple[int, int], list[str]]:
    """Each body block's parts as :func:`body_parts` cuts them, by (page, block order)."""
    parts: dict[tuple[int, int], list[str]] = {}
    for page, order, part in body_parts(pages):
        parts.setdefault((page.index, order), []).append(part)
    return parts


def build_structure(pages: list[PageResult] | tuple[PageResult, ...]) -> tuple[StructureNode, ...]:
    """The headings and articles of ``pages``; empty when fewer than MIN_ARTICLES open."""
    items = body_parts(pages)
    openings = [opening(text) for _, _, text in items]
    if sum(o is not None and o.kind == "article" for o in openings) < MIN_ARTICLES:
        return ()
    roots: list[StructureNode] = []
    stack: list[_Open] = []
    seen: dict[str, int] = {}

    def close_to(level: int) -> None:
        while stack and LEVELS[stack[-1].opened.kind] >= level:
            node = _finish(stack.pop(), seen)
            (stack[-1].children if stack else roots).append(node)

    for (page, order, text), opened in zip(items, openings, strict=True):
        if opened is not None:
            close_to(LEVELS[opened.kind])
            stack.append(_Open(opened))
            stack[-1].add(opened.rest, page.index, order)
        elif stack:
            stack[-1].add(text, page.index, order)
    close_to(0)
    return _linked(tuple(roots))


def _linked(roots: tuple[StructureNode, ...]) -> tuple[StructureNode, ...]:
    """The tree with each article's cross-references resolved to the articles it holds."""
    ids: dict[str, str] = {}
    for node in preorder(roots):
        if node.kind == "article":
            ids.setdefault(node.number, node.id)

    def link(node: StructureNode) -> StructureNode:
        children = tuple(link(child) for child in node.children)
        cited = [ids[n] for n in cited_articles(node.text) if n in ids] if node.text else []
        own = [c for c in cited if c != node.id and not node.id.startswith(f"{c}/")]
        return node.model_copy(update={"children": children, "references": tuple(own)})

    return tuple(link(root) for root in roots)


def preorder(nodes: Sequence[StructureNode]) -> list[StructureNode]:
    """Every node of the trees, each before its children, in reading order."""
    return [m for n in nodes for m in (n, *preorder(n.children))]


def _finish(node: _Open, seen: dict[str, int]) -> StructureNode:
    opened = node.opened
    base = node_id(opened.kind, opened.number)
    seen[base] = seen.get(base, 0) + 1
    own_id = base if seen[base] == 1 else f"{base}.{seen[base]}"
    kind: NodeKind = opened.kind
    article = kind == "article"
    return StructureNode(
        kind=kind,
        label=opened.label,
        number=opened.number,
        id=own_id,
        title=opened.title,
        level=LEVELS[kind],
        deleted=opened.deleted,
        pages=tuple(node.pages),
        blocks=tuple(node.blocks),
        text="\n".join(part.text for part in node.parts) if article else "",
        children=tuple(node.children) if not article else _items(node.parts, own_id),
    )


@dataclass
class _Item:
    marker: Marker
    id: str
    texts: list[str]
    blocks: list[tuple[int, int]]
    children: list[_Item] = field(default_factory=list)

    def node(self) -> StructureNode:
        kind = self.marker.kind
        return StructureNode(
            kind=kind,
            label=self.marker.label,
            number=self.marker.number,
            id=self.id,
            level=LEVELS[kind],
            pages=tuple(dict.fromkeys(page for page, _ in self.blocks)),
            blocks=tuple(self.blocks),
            text="\n".join(self.texts),
            children=tuple(child.node() for child in self.children),
        )


_CODES = {"paragraph": "p", "subparagraph": "s", "item": "i"}


def _items(parts: list[_Part], article_id: str) -> tuple[StructureNode, ...]:
    """An article's numbered paragraphs, subparagraphs and items, nested by level: a
    subparagraph belongs to the paragraph open above it, an item to its subparagraph; a
    paragraph without a number (a 項 of a Chinese statute) goes on the article's own text."""
    top: list[_Item] = []
    open_items: list[_Item] = []
    for part in parts:
        marker = item_marker(part.text)
        if marker is None:
            if open_items:
                open_items[-1].texts.append(part.text)
                open_items[-1].blocks.extend(
                    b for b in part.blocks if b not in open_items[-1].blocks
                )
            continue
        level = LEVELS[marker.kind]
        while open_items and LEVELS[open_items[-1].marker.kind] >= level:
            open_items.pop()
        parent = open_items[-1].id if open_items else article_id
        item = _Item(
            marker,
            f"{parent}/{_CODES[marker.kind]}{marker.number}",
            [marker.rest],
            list(part.blocks),
        )
        (open_items[-1].children if open_items else top).append(item)
        open_items.append(item)
    return tuple(item.node() for item in top)
