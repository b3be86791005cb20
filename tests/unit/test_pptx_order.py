"""A slide's reading order over its shapes: a shape with no extent on the slide (no position of
its own, as a hand-made or damaged deck may hold) is read after the placed shapes in the
slide's tree order, not first as if it sat at the slide's corner; the placed shapes keep
their rows and columns. Also docling's deck with such a shape, read natively."""

from __future__ import annotations

from pagereader.sources.pptx_order import reading_order
from pagereader.sources.pptx_shapes import ShapeItem

from shared_data import shared

SIZE = (9144000.0, 6858000.0)


def _item(name: str, box: tuple[float, float, float, float], kind: str = "text") -> ShapeItem:
    return ShapeItem(kind=kind, box=box, text=name, name=name)  # type: ignore[arg-type]


def test_a_shape_without_extent_follows_the_placed_shapes() -> None:
    items = [
        _item("title", (457200, 274638, 8686800, 1417638), kind="title"),
        _item("nowhere", (0.0, 0.0, 0.0, 0.0)),
        _item("right", (4800000, 1600000, 8600000, 3000000)),
        _item("left", (457200, 1600000, 4400000, 3000000)),
        _item("below", (457200, 3500000, 8600000, 4500000)),
    ]
    order = [item.name for item in reading_order(items, SIZE)]
    assert order == ["title", "left", "right", "below", "nowhere"]


def test_shapes_without_extent_keep_their_tree_order() -> None:
    items = [
        _item("second-in-tree", (0.0, 0.0, 0.0, 0.0)),
        _item("placed", (457200, 1600000, 4400000, 3000000)),
        _item("third-in-tree", (0.0, 0.0, 0.0, 0.0)),
    ]
    order = [item.name for item in reading_order(items, SIZE)]
    assert order == ["placed", "second-in-tree", "third-in-tree"]


def test_docling_deck_with_an_unplaced_shape_reads_it_last() -> None:
    deck = shared("eval", "docling_testdata", "pptx", "powerpoint_unrecognized_shape.pptx")
    from pagereader.config.options import Options
    from pagereader.pipeline import parse

    markdown = parse(deck, Options()).markdown
    slide = markdown.split("<!-- page 2 -->", 1)[1].split("<!-- page 3 -->", 1)[0]
    assert slide.index("Net retention rate: 112%") < slide.index("Text in an unrecognized shape")
