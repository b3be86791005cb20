"""Dates are never a slide's title nor a heading: the forms decks and letters print them in."""

from __future__ import annotations

import pytest

from pagereader.layout.slide_title import is_date


@pytest.mark.parametrize(
    "text",
    [
        "November 24, 2011",
        "24 November 2011",
        "Nov. 24, 2011",
        "Thursday, November 24, 2011",
        "March 2024",
        "2024-03-14",
        "14/03/2024",
        "2024年3月14日",
        "2024년 3월 14일",
    ],
)
def test_dates(text: str) -> None:
    assert is_date(text)


@pytest.mark.parametrize(
    "text", ["Annual General Meeting 2011", "May the best team win", "Agenda", "2024 results"]
)
def test_titles_are_no_dates(text: str) -> None:
    assert not is_date(text)
