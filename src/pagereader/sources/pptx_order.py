"""A slide's reading order over shape boxes: titles first, then an XY-cut, one box at a time.

The cut splits the boxes into rows where a horizontal band is free of boxes, and a row into
columns where a vertical band is; two text boxes side by side are two columns, so each is read
to its end before the next begins (a text layer would read across them line by line). Boxes
that overlap everything (a picture behind the slide) take no part in cutting: they follow the
rest. Shapes with no extent (no position of their own, nor one PowerPoint could inherit)
have no place to be read at: they follow too, in the slide's tree order. Groups are read as
one box, then their children in their own order; a text box split into list and text parts is
read as one box, then its parts in paragraph order.
"""

from __future__ import annotations

from collections.abc import Sequence

from pagereader.sources.pptx_shapes import ShapeItem
from pagereader.types import BBox

_BACKGROUND_SHARE = 0.5
"""A box over this share of the slide is a backdrop, not a place in the reading order."""
_OVERLAP_SLACK = 0.02
"""Boxes may overlap by this share of the slide's side and still be cut apart."""


def _area(box: BBox) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _placed(item: ShapeItem) -> bool:
    """Whether the item has an extent on the slide (a shape without one reads as a point)."""
    return item.box[2] > item.box[0] or item.box[3] > item.box[1]


def _bands(items: Sequence[ShapeItem], axis: int, slack: float) -> list[list[ShapeItem]]:
    """Items grouped into bands along ``axis`` (1: rows top to bottom, 0: columns left to
    right); a band ends where the next box starts past the band's end (less ``slack``)."""
    ordered = sorted(items, key=lambda it: (it.box[axis], it.box[axis + 2]))
    bands: list[list[ShapeItem]] = []
    end = float("-inf")
    for item in ordered:
        start, stop = item.box[axis], item.box[axis + 2]
        if bands and start < end - slack:
            bands[-1].append(item)
            end = max(end, stop)
        else:
            bands.append([item])
            end = stop
    return bands


def xy_cut(items: Sequence[ShapeItem], slack: tuple[float, float]) -> list[ShapeItem]:
    """Items in reading order: rows first, then columns within a row, recursively; items no
    band separates are read top to bottom, then left to right."""
    if len(items) <= 1:
        return list(items)
    rows = _bands(items, 1, slack[1])
    if len(rows) > 1:
        return [item for row in rows for item in xy_cut(row, slack)]
    columns = _bands(items, 0, slack[0])
    if len(columns) > 1:
        return [item for column in columns for item in xy_cut(column, slack)]
    return sorted(items, key=lambda it: (it.box[1], it.box[0]))


def _expand(items: Sequence[ShapeItem], size: tuple[float, float]) -> list[ShapeItem]:
    out: list[ShapeItem] = []
    for item in items:
        if item.is_group:
            out.extend(reading_order(item.children, size, titles_first=False))
        elif item.parts:
            out.extend(item.parts)
        else:
            out.append(item)
    return out


def reading_order(
    items: Sequence[ShapeItem], size: tuple[float, float], titles_first: bool = True
) -> list[ShapeItem]:
    """The slide's items (groups expanded) in reading order; ``size`` is the slide's
    width and height in the items' units."""
    area = max(1.0, size[0] * size[1])
    titles = [it for it in items if titles_first and it.kind == "title"]
    rest = [it for it in items if not (titles_first and it.kind == "title")]
    big = [_area(it.box) > _BACKGROUND_SHARE * area and it.kind == "figure" for it in rest]
    backdrop = [it for it, behind in zip(rest, big, strict=True) if behind]
    placed = [it for it, behind in zip(rest, big, strict=True) if not behind and _placed(it)]
    unplaced = [it for it in rest if not _placed(it)]
    slack = (_OVERLAP_SLACK * size[0], _OVERLAP_SLACK * size[1])
    ordered = xy_cut(placed, slack) + backdrop + unplaced
    return _expand(titles, size) + _expand(ordered, size)
