"""Which numbered paragraph, subparagraph or item of an article a change falls in.

An article's text holds its items one per line, in the order the tree made them (tree.py
opens an item at each line whose marker ``item_marker`` reads, nesting it under the one open
above), so the n-th marker line of the text is the n-th item of the tree in pre-order."""

from __future__ import annotations

import bisect

from pagereader.structure.diff.align import article_text
from pagereader.structure.numbering import item_marker
from pagereader.structure.tree import preorder
from pagereader.types import StructureNode


class ItemIndex:
    """Offsets in ``article_text(article)`` where each item starts, and the item's id."""

    def __init__(self, article: StructureNode) -> None:
        items = iter(preorder(article.children))
        self.starts: list[int] = [0]
        self.ids: list[str] = [article.id]
        at = len(article_text(article)) - len(article.text)
        for line in article.text.split("\n"):
            if item_marker(line) is not None:
                item = next(items, None)
                if item is not None:
                    self.starts.append(at)
                    self.ids.append(item.id)
            at += len(line) + 1

    def at(self, offset: int) -> str:
        """The id of the innermost item (or the article) holding the text at ``offset``."""
        return self.ids[bisect.bisect_right(self.starts, offset) - 1]
