"""Reading order by XY-cut on synthetic page layouts."""

from __future__ import annotations

from pagereader.layout.reading_order import order_blocks
from pagereader.types import BBox, Block, BlockKind, TextLine

W, H = 612.0, 792.0


def blk(name: str, bbox: BBox, kind: BlockKind = "text") -> Block:
    return Block(kind=kind, bbox=bbox, source=name)


def names(blocks: list[Block]) -> list[str]:
    assert [b.order for b in blocks] == list(range(len(blocks)))
    return [b.source for b in blocks]


def two_column_page() -> list[Block]:
    return [
        blk("footer", (290, 760, 320, 770), "footer"),
        blk("R2", (320, 330, 540, 520)),
        blk("L1", (72, 130, 295, 300)),
        blk("header", (72, 20, 300, 30), "header"),
        blk("title", (72, 70, 540, 110), "title"),
        blk("R1", (320, 130, 540, 300)),
        blk("L2", (72, 330, 295, 600)),
        blk("footnote", (72, 640, 540, 700)),
        blk("R3", (320, 540, 540, 610)),
    ]


def test_two_columns_with_spanning_title_and_footnote() -> None:
    ordered = order_blocks(two_column_page(), W, H)
    assert names(ordered) == [
        "header",
        "title",
        "L1",
        "L2",
        "R1",
        "R2",
        "R3",
        "footnote",
        "footer",
    ]


def test_coincident_gaps_in_both_columns_do_not_interleave() -> None:
    # Both columns have a paragraph break at the same height, and the left column runs longer.
    blocks = [
        blk("L1", (72, 100, 295, 200)),
        blk("R1", (320, 100, 540, 200)),
        blk("L2", (72, 220, 295, 320)),
        blk("R2", (320, 220, 540, 300)),
        blk("L3", (72, 340, 295, 400)),
    ]
    assert names(order_blocks(blocks, W, H)) == ["L1", "L2", "L3", "R1", "R2"]


def test_single_column_with_right_aligned_line_reads_top_down() -> None:
    blocks = [
        blk("body", (72, 200, 540, 400)),
        blk("greeting", (72, 150, 200, 165)),
        blk("date", (420, 100, 540, 115)),
    ]
    assert names(order_blocks(blocks, W, H)) == ["date", "greeting", "body"]


def test_sections_of_columns_under_full_width_figure() -> None:
    blocks = [
        blk("A1", (72, 80, 295, 200)),
        blk("B1", (320, 80, 540, 200)),
        blk("figure", (72, 220, 540, 400), "figure"),
        blk("A2", (72, 420, 295, 700)),
        blk("B2", (320, 420, 540, 700)),
    ]
    assert names(order_blocks(blocks, W, H)) == ["A1", "B1", "figure", "A2", "B2"]


def test_slightly_overlapping_boxes_still_split_columns() -> None:
    blocks = [
        blk("title", (72, 60, 540, 90), "title"),
        blk("L1", (72, 100, 307, 300)),
        blk("R1", (305, 100, 540, 300)),
        blk("L2", (72, 310, 307, 500)),
        blk("R2", (305, 310, 540, 500)),
    ]
    assert names(order_blocks(blocks, W, H)) == ["title", "L1", "L2", "R1", "R2"]


def test_empty_and_single() -> None:
    assert order_blocks([], W, H) == []
    assert names(order_blocks([blk("only", (0, 0, 10, 10))], W, H)) == ["only"]


def test_a_logo_beside_the_title_is_not_a_column() -> None:
    """A slide: a logo at the top left, the title at the top right, the body below the logo.
    The logo made a left 'column' with the first body line, read before the title."""
    blocks = [
        blk("logo", (0, 0, 217, 81), "figure"),
        blk("title", (376, 51, 544, 93), "title"),
        blk("lead", (43, 135, 135, 157)),
        blk("item1", (43, 165, 566, 219), "list"),
        blk("item2", (43, 228, 187, 251), "list"),
    ]
    assert names(order_blocks(blocks, 720, 540)) == ["logo", "title", "lead", "item1", "item2"]


def test_two_boxes_under_a_title_beside_a_logo_are_read_one_at_a_time() -> None:
    blocks = [
        blk("logo", (0, 0, 217, 81), "figure"),
        blk("title", (334, 51, 586, 92), "title"),
        blk("L head", (43, 136, 261, 196)),
        blk("R head", (373, 136, 544, 196)),
        blk("L item", (43, 208, 344, 303), "list"),
        blk("R item", (373, 208, 674, 303), "list"),
    ]
    assert names(order_blocks(blocks, 720, 540)) == [
        "logo",
        "title",
        "L head",
        "L item",
        "R head",
        "R item",
    ]


def test_a_picture_behind_the_text_takes_no_part_in_the_cuts() -> None:
    """A slide's backdrop picture spans the rows of a label column and a text column: without
    it the columns are read one after the other; it is read just before the first block on it."""
    blocks = [
        blk("title", (70, 30, 650, 110), "title"),
        blk("backdrop", (320, 100, 720, 495), "figure"),
        *(blk(f"label{i}", (70, 150 + 90 * i, 300, 170 + 90 * i)) for i in range(4)),
        *(blk(f"text{i}", (380, 130 + 90 * i, 660, 190 + 90 * i)) for i in range(4)),
    ]
    ordered = names(order_blocks(blocks, 720, 540))
    labels, texts = [f"label{i}" for i in range(4)], [f"text{i}" for i in range(4)]
    assert ordered == ["title", *labels, "backdrop", *texts]


def test_two_columns_of_centred_box_labels_are_read_one_column_at_a_time() -> None:
    """A diagram: a column of labels in boxes beside a column of their counterparts, each
    label centred in its box, so the right column's left edges differ from row to row (one
    starts where the next row's gutter is). Read column by column, not row by row."""
    right = [(433, 124, 623, 162), (475, 213, 581, 229), (447, 280, 602, 319)]
    right += [(430, 358, 626, 397), (428, 447, 628, 486)]
    blocks = [blk("title", (82, 32, 638, 109), "title")]
    blocks += [blk(f"L{i}", (95, 145 + 78 * i, 241, 162 + 78 * i)) for i in range(4)]
    blocks += [blk(f"R{i}", box) for i, box in enumerate(right)]
    expected = ["title", "L0", "L1", "L2", "L3", "R0", "R1", "R2", "R3", "R4"]
    assert names(order_blocks(blocks, 720, 540)) == expected


def newspaper_page() -> list[Block]:
    """A six-column broadsheet: a masthead over the page, one story's headline over columns
    1-3 and another's over columns 4-6 (its deck over 4-5, a photo caption in column 6), each
    story's paragraphs staggered down its columns so no horizontal gap runs across a story."""
    col = 88.0
    blocks = [blk("masthead", (20, 20, 20 + 6 * col, 70), "title")]
    blocks.append(blk("A-head", (20, 80, 20 + 3 * col - 8, 120), "title"))
    blocks.append(blk("B-head", (20 + 3 * col, 80, 20 + 6 * col - 8, 120), "title"))
    blocks.append(blk("B-deck", (20 + 3 * col, 125, 20 + 5 * col - 8, 140)))
    for c in range(6):
        x0 = 20 + c * col
        story = "A" if c < 3 else "B"
        top = 150 + 17 * c
        for p in range(3):
            y0 = top + p * 190
            blocks.append(blk(f"{story}{c + 1}.{p + 1}", (x0, y0, x0 + col - 8, y0 + 180)))
    return blocks


def test_a_newspaper_is_read_story_by_story_and_column_by_column() -> None:
    ordered = names(order_blocks(newspaper_page(), W, H))
    columns = [[f"{'A' if c < 3 else 'B'}{c + 1}.{p}" for p in (1, 2, 3)] for c in range(6)]
    assert ordered == [
        "masthead",
        "A-head",
        *columns[0],
        *columns[1],
        *columns[2],
        "B-head",
        "B-deck",
        *columns[3],
        *columns[4],
        *columns[5],
    ]


def test_an_unboxed_table_on_a_slide_is_read_row_by_row() -> None:
    def cell(name: str, x: float, y: float) -> Block:
        box: BBox = (x, y, x + 90, y + 14)
        return Block(kind="text", bbox=box, source=name, lines=(TextLine(text=name, bbox=box),))

    rows = [[f"r{r}c{c}" for c in range(4)] for r in range(4)]
    blocks = [
        cell(name, 60 + 120 * c, 150 + 30 * r)
        for r, row in enumerate(rows)
        for c, name in enumerate(row)
    ]
    ordered = names(order_blocks([blk("title", (60, 60, 540, 100), "title"), *blocks[::-1]], W, H))
    assert ordered == ["title", *(name for row in rows for name in row)]


def _lined(name: str, box: BBox, kind: BlockKind, lines: int) -> Block:
    step = (box[3] - box[1]) / lines
    rows = tuple(
        TextLine(text=name, bbox=(box[0], box[1] + i * step, box[2], box[1] + (i + 1) * step))
        for i in range(lines)
    )
    return Block(kind=kind, bbox=box, source=name, lines=rows)


def test_a_photo_beside_the_article_title_does_not_carry_its_column_ahead_of_it() -> None:
    """A magazine: a photo and its caption at the top left, the title (set large) and a
    standfirst at the top right, the article in two columns below both. The gutter beside the
    photo runs down the page, so the column cut read the caption and the left column before
    the title; the title opens the article and the photo is read with its caption."""
    blocks = [
        blk("photo", (50, 50, 300, 280), "figure"),
        _lined("caption", (50, 288, 197, 297), "text", 1),
        _lined("left", (50, 332, 245, 690), "text", 30),
        _lined("title", (315, 57, 518, 85), "title", 1),
        _lined("standfirst", (315, 112, 504, 278), "text", 14),
        _lined("right", (315, 332, 512, 690), "text", 30),
    ]
    expected = ["title", "standfirst", "photo", "caption", "left", "right"]
    assert names(order_blocks(blocks, W, H)) == expected


def test_a_section_heading_atop_the_next_column_keeps_column_order() -> None:
    """A paper: a figure and caption atop the left column, a section heading at the body's
    size atop the right one; the left column is read first, as the column cut reads it."""
    blocks = [
        blk("figure", (50, 50, 300, 280), "figure"),
        _lined("caption", (50, 288, 300, 310), "caption", 2),
        _lined("left", (50, 332, 300, 690), "text", 30),
        _lined("heading", (315, 57, 518, 70), "title", 1),
        _lined("right top", (315, 80, 560, 300), "text", 18),
        _lined("right", (315, 332, 560, 690), "text", 30),
    ]
    expected = ["figure", "caption", "left", "heading", "right top", "right"]
    assert names(order_blocks(blocks, W, H)) == expected


def test_cards_of_a_grid_are_read_whole_down_their_columns() -> None:
    """Four numbered cards in two columns under a page title, each a heading, a centred formula
    (in parts: ``∇ · E =`` beside its fraction) and a paragraph; the cards are of unequal
    heights (olmOCR-bench's mathfuncs_colswitch page). A heading ending just short of the
    formula under it, or a formula's parts side by side, make no gutter: each card is read
    whole, down the columns as numbered."""
    cards = [
        ("t", (137, 41, 655, 67), "title", 1),
        ("sub", (195, 78, 597, 92), "text", 1),
        ("h1", (74, 135, 192, 151), "title", 1),
        ("f1", (194, 176, 263, 193), "title", 2),
        ("p1", (74, 215, 382, 252), "text", 3),
        ("h2", (74, 307, 237, 323), "title", 1),
        ("f2", (191, 345, 265, 364), "text", 4),
        ("p2", (74, 386, 382, 423), "text", 3),
        ("h3", (409, 135, 679, 151), "title", 1),
        ("f3", (481, 176, 646, 214), "text", 4),
        ("p3", (409, 233, 718, 270), "text", 3),
        ("h4", (409, 307, 560, 323), "title", 1),
        ("f4a", (529, 350, 578, 368), "title", 1),
        ("f4a-fraction", (584, 343, 596, 379), "text", 2),
        ("f4b", (533, 387, 594, 405), "title", 1),
        ("f4c", (516, 424, 587, 442), "title", 1),
        ("f4c-fraction", (589, 414, 610, 452), "title", 2),
        ("f4d", (488, 465, 616, 484), "title", 1),
        ("f4d-fraction", (618, 456, 638, 494), "title", 2),
        ("p4", (409, 510, 716, 559), "text", 4),
    ]
    blocks = [_lined(name, box, kind, lines) for name, box, kind, lines in cards]  # type: ignore[arg-type]
    ordered = names(order_blocks(blocks[::-1], 792, 612))
    assert ordered == [name for name, *_ in cards]


def _card_grid(numbers: tuple[int, int, int, int]) -> list[Block]:
    """Two columns of two cards, each a numbered heading, a formula and a paragraph; the
    cards numbered ``numbers`` (top left, bottom left, top right, bottom right)."""
    blocks = []
    for (x, y), number in zip(((74, 135), (74, 360), (409, 135), (409, 360)), numbers, strict=True):
        heading = TextLine(text=f"{number}. Heading", bbox=(x, y, x + 150, y + 16))
        blocks.append(Block(kind="title", bbox=heading.bbox, lines=(heading,), source=f"h{number}"))
        blocks.append(_lined(f"f{number}", (x + 100, y + 40, x + 180, y + 60), "text", 2))
        blocks.append(_lined(f"p{number}", (x, y + 80, x + 300, y + 120), "text", 3))
    return blocks


def test_numbered_cards_are_read_in_their_numbers_order() -> None:
    """Cards numbered along the rows are read row by row, card by card (olmOCR-bench's
    mathfuncs page); numbered down the columns, column by column (its colswitch twin)."""
    along_rows = names(order_blocks(_card_grid((1, 3, 2, 4))[::-1], 792, 612))
    assert along_rows == ["h1", "f1", "p1", "h2", "f2", "p2", "h3", "f3", "p3", "h4", "f4", "p4"]
    down_columns = names(order_blocks(_card_grid((1, 2, 3, 4))[::-1], 792, 612))
    assert down_columns == along_rows


def test_cards_whose_numbers_no_order_keeps_leave_the_columns_order() -> None:
    ordered = names(order_blocks(_card_grid((1, 4, 2, 7))[::-1], 792, 612))
    assert ordered == ["h1", "f1", "p1", "h4", "f4", "p4", "h2", "f2", "p2", "h7", "f7", "p7"]
