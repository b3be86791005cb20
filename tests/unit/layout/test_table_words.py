"""Tables without column rules rebuilt from word positions, and found among page lines."""

from __future__ import annotations

from pagereader.layout.table_detect import find_word_tables, looks_tabular
from pagereader.layout.table_words import (
    split_words,
    words_table,
)
from pagereader.types import Table, TextLine

EM = 10.0


def _line(text: str, x: float, y: float, size: float = EM) -> TextLine:
    """A text-layer line with character boxes: 0.5 em a character, spaces included."""
    step = size / 2
    boxes = tuple((x + i * step, y, x + (i + 1) * step, y + size) for i in range(len(text)))
    return TextLine(
        text=text, bbox=(x, y, x + len(text) * step, y + size), font_size=size, char_boxes=boxes
    )


def _grid(table: Table) -> dict[tuple[int, int], tuple[str, int]]:
    return {(c.row, c.col): (c.text, c.col_span) for c in table.cells}


def _booktabs() -> list[TextLine]:
    """A header centred over three year columns, a label column, dollar signs set apart."""
    rows = [
        ("Revenue", "$", "178", "141", "138"),
        ("Research", "", "3,423", "2,532", "1,892"),
        ("Sales", "", "1,136", "876", "680"),
        ("Total", "$", "4,737", "3,549", "2,710"),
    ]
    lines = [
        _line("Year Ended", 255, 100),
        _line("2025", 190, 115),
        _line("2024", 270, 115),
        _line("2023", 350, 115),
    ]
    for i, (label, sign, *values) in enumerate(rows):
        y = 135 + i * 15
        lines.append(_line(label, 50, y))
        if sign:
            lines.append(_line(sign, 170, y))
        lines += [_line(v, 180 + 80 * k + (20 - 5 * len(v)), y) for k, v in enumerate(values)]
    return lines


def test_split_words_cuts_at_spaces_and_wide_gaps() -> None:
    words = split_words(_line("3.71T 3.32T", 0, 0))
    assert [w.text for w in words] == ["3.71T", "3.32T"]
    assert words[1].bbox[0] == 30.0


def test_split_words_estimates_boxes_without_char_boxes() -> None:
    words = split_words(TextLine(text="ab cd", bbox=(0, 0, 50, 10)))
    assert [(w.text, w.bbox[0], w.bbox[2]) for w in words] == [("ab", 0, 20), ("cd", 30, 50)]


def test_words_table_rebuilds_columns_rows_and_a_spanning_header() -> None:
    words = [w for ln in _booktabs() for w in split_words(ln)]
    table = words_table(words)
    assert table is not None
    assert (table.rows, table.cols) == (6, 4)
    grid = _grid(table)
    assert grid[(0, 1)] == ("Year Ended", 3)
    assert [grid[(1, c)][0] for c in (1, 2, 3)] == ["2025", "2024", "2023"]
    assert grid[(2, 0)] == ("Revenue", 1)
    assert grid[(2, 1)] == ("$ 178", 1)
    assert grid[(4, 2)] == ("876", 1)
    assert grid[(5, 3)] == ("2,710", 1)


def test_small_sub_lines_join_their_row() -> None:
    lines = [_line("Name", 50, 100), _line("Size", 200, 100), _line("Docs", 300, 100)]
    lines += [
        _line("alpha", 50, 115),
        _line("12", 200, 115),
        _line("3", 300, 115),
        _line("from a mix", 60, 125, 7),
        _line("beta", 50, 140),
        _line("7", 200, 140),
        _line("4", 300, 140),
    ]
    table = words_table([w for ln in lines for w in split_words(ln)])
    assert table is not None and table.rows == 3
    assert _grid(table)[(1, 0)][0] == "alpha from a mix"


def test_find_word_tables_finds_the_table_and_not_the_prose() -> None:
    prose = [
        _line("This is a paragraph of running text that fills the whole line of it.", 50, 40),
        _line("It goes on for a while and ends here.", 50, 55),
    ]
    found = find_word_tables(prose + _booktabs(), 600)
    assert len(found) == 1
    box, table = found[0]
    assert box[1] == 100 and table.cols == 4


def test_two_prose_columns_are_not_a_table() -> None:
    left = "words of the left column run on and on here"
    right = "and the right column has its own words too"
    lines = [
        ln
        for i in range(8)
        for ln in (_line(left, 40, 100 + 14 * i), _line(right, 320, 100 + 14 * i))
    ]
    assert find_word_tables(lines, 600) == []


def test_bullet_lists_and_key_values_are_not_tables() -> None:
    bullets = [
        ln
        for i in range(5)
        for ln in (
            _line("• Fast", 40, 100 + 15 * i),
            _line("• Cheap", 200, 100 + 15 * i),
            _line("• Good", 360, 100 + 15 * i),
        )
    ]
    pairs = [
        ln
        for i in range(5)
        for ln in (_line(f"Key {i}:", 40, 300 + 15 * i), _line(f"value {i}", 200, 300 + 15 * i))
    ]
    assert find_word_tables(bullets + pairs, 600) == []


def test_looks_tabular_needs_three_columns() -> None:
    table = words_table([w for ln in _booktabs()[:4] for w in split_words(ln)])
    assert table is None or not looks_tabular(table, 600)
