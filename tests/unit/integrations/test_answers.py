"""The adapters' answers: Markdown bounded with a note, article numbers as people write
them."""

from __future__ import annotations

import pytest

from pagereader.integrations.answers import article_number, bounded


def test_short_markdown_is_whole() -> None:
    answer = bounded("# Title\n\ntext\n", 100, "more")
    assert answer.markdown == "# Title\n\ntext\n" and not answer.truncated
    assert answer.total_chars == len("# Title\n\ntext\n")


def test_long_markdown_is_cut_at_a_line_end_with_a_note() -> None:
    lines = [f"line {n:03d} " + "x" * 40 for n in range(100)]
    text = "\n".join(lines)
    answer = bounded(text, 1000, "read_page returns one page")
    assert answer.truncated and answer.total_chars == len(text)
    body, note = answer.markdown.split("\n\n[truncated: ")
    assert text.startswith(body) and len(body) <= 1000 and text[len(body)] == "\n"
    assert note.startswith(f"{len(body)} of {len(text)} characters shown; read_page")


def test_one_long_line_is_cut_at_the_limit() -> None:
    answer = bounded("y" * 5000, 1000, "more")
    assert answer.markdown.startswith("y" * 1000 + "\n\n[truncated: 1000 of 5000")


@pytest.mark.parametrize(
    ("asked", "number"),
    [
        ("30-1", "30-1"),
        ("第三十條之一", "30-1"),
        ("第 30-1 條", "30-1"),
        ("第十五條", "15"),
        ("第１２條", "12"),
        ("제4조의2", "4-2"),
        ("Article 5", "5"),
        ("十五", "15"),
        ("12", "12"),
    ],
)
def test_article_numbers_as_people_write_them(asked: str, number: str) -> None:
    assert article_number(asked) == number
