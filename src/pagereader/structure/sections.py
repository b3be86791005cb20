"""A document's pieces grouped into the sections chunks follow: a statute's articles and
headings (from the structure tree), a deck's slides, or the stretches under each title."""

from __future__ import annotations

from dataclasses import dataclass, field

from pagereader.structure.joined import Piece
from pagereader.types import DocumentResult, StructureNode

_HEADING_KINDS = frozenset({"part", "chapter", "section", "subsection", "division", "article"})


@dataclass
class Section:
    """Consecutive pieces that belong together: one article, one slide, one titled stretch."""

    pieces: list[Piece] = field(default_factory=list)
    heading_path: tuple[str, ...] = ()
    article_id: str | None = None
    mergeable: bool = True

    @property
    def heading_only(self) -> bool:
        """Only headings (a chapter's heading before its first article, a title alone)."""
        return all(p.title or p.part_heading for p in self.pieces)


def document_sections(result: DocumentResult, pieces: list[Piece]) -> list[Section]:
    if result.structure:
        return _statute(result.structure, pieces)
    if result.deck is not None or any(page.slide is not None for page in result.pages):
        return _slides(pieces)
    return _titled(pieces)


def _heading(node: StructureNode) -> str:
    return " ".join(f"{node.label} {node.title}".split())


def _statute(roots: tuple[StructureNode, ...], pieces: list[Piece]) -> list[Section]:
    """Pieces under the article or heading the structure tree read them into: a block's parts
    are read into the tree's nodes in order, so the last parts of a block go to the nodes that
    list it (the first ones, before any node opened, to none)."""
    owners: dict[tuple[int, int], list[StructureNode]] = {}

    def visit(node: StructureNode) -> None:
        if node.kind not in _HEADING_KINDS:
            return
        for key in node.blocks:
            owners.setdefault(key, []).append(node)
        for child in node.children:
            visit(child)

    for root in roots:
        visit(root)
    sections: list[Section] = []
    current: StructureNode | None = None
    for piece in pieces:
        listed = owners.get(piece.blocks[0], []) if piece.blocks else []
        index = piece.part - (piece.parts - len(listed))
        if piece.blocks and 0 <= index < len(listed):
            owner = listed[index]
            if current is None or owner.id != current.id:
                current = node = owner
                article = node.id if node.kind == "article" else None
                path = (*piece.heading_path, _heading(node)) if article else piece.path
                sections.append(Section([], path, article, mergeable=article is None))
                if node.kind != "article" and piece.text.strip():
                    piece.part_heading = piece.kind != "table"
        if not sections:
            sections.append(Section([], piece.path))
        sections[-1].pieces.append(piece)
    return sections


def _slides(pieces: list[Piece]) -> list[Section]:
    """One section a slide, its speaker notes included, under the slide's title (its top
    heading)."""
    sections: dict[int, Section] = {}
    for piece in pieces:
        page = piece.pages[0]
        section = sections.setdefault(page, Section(mergeable=False))
        if not section.heading_path and piece.path:
            section.heading_path = piece.path[:1]
        section.pieces.append(piece)
    return list(sections.values())


def _titled(pieces: list[Piece]) -> list[Section]:
    """A new section at each heading, under the headings open above it (structure/headings.py);
    what comes before the first heading is a section of its own."""
    sections: list[Section] = []
    for piece in pieces:
        if piece.title or not sections or piece.path != sections[-1].heading_path:
            sections.append(Section([], piece.path))
        sections[-1].pieces.append(piece)
    return sections
