"""Slides printed to PDF, made by code (tests/fixtures/slide_titles.py), read for real: each
slide's title is its top heading and the first thing read on it, whether it wraps over two
lines above a large date, sits beside a list that a column reader would read first, or comes
under a date in the corner; a date is never a heading, and the body keeps all its text."""

from __future__ import annotations

from pathlib import Path

from pagereader.pipeline import parse

from fixtures.slide_titles import write_agenda_deck, write_subtitled_slides, write_titled_slides


def _content(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.strip() and not line.startswith("<!--")]


def test_the_title_is_the_slides_top_heading_and_read_first(tmp_path: Path) -> None:
    pdf = tmp_path / "slides.pdf"
    slides = write_titled_slides(pdf)
    result = parse(pdf)
    assert len(result.pages) == len(slides)
    for page, slide in zip(result.pages, slides, strict=True):
        lines = _content(page.markdown)
        headings = [line for line in lines if line.startswith("#")]
        assert headings == [f"# {slide.title}"], (page.index, lines)
        assert lines[0] == f"# {slide.title}", (page.index, lines)
        body = lines[1:]
        flat = " ".join(body)
        for text in slide.body:
            assert text in flat, (page.index, text, lines)


def test_bullets_printed_further_in_are_nested(tmp_path: Path) -> None:
    """The second slide's officers are printed under ``Officers``, further in: one level
    deeper in the Markdown; the first-level bullet stays at the top level."""
    pdf = tmp_path / "slides.pdf"
    board = write_titled_slides(pdf)[1]
    page = parse(pdf).pages[1]
    lines = _content(page.markdown)
    assert f"- {board.body[0]}" in lines
    for text in board.body[1:]:
        assert f"  - {text}" in lines, (text, lines)


def test_a_subtitle_set_larger_than_the_title_stays_below_it(tmp_path: Path) -> None:
    """The title is the slide's top heading and its first line; the subtitle under it, set
    larger, is read after it and is no top heading."""
    pdf = tmp_path / "subtitled.pdf"
    slides = write_subtitled_slides(pdf)
    result = parse(pdf)
    for page, slide in zip(result.pages, slides, strict=True):
        lines = _content(page.markdown)
        assert lines[0] == f"# {slide.title}", (page.index, lines)
        assert [line for line in lines if line.startswith("# ")] == [lines[0]], lines
        subtitle = next(i for i, line in enumerate(lines) if slide.body[0] in line)
        assert subtitle == 1, lines
        for text in slide.body[1:]:
            assert f"- {text}" in lines, (text, lines)


def test_an_agendas_section_lines_are_its_body_not_headings(tmp_path: Path) -> None:
    """An agenda's plain section lines are set in the agenda's own body size, larger than the
    rest of the deck: body paragraphs, each on its own line, not headings, and not run on into
    the bulleted item above them."""
    pdf = tmp_path / "agenda.pdf"
    sections = write_agenda_deck(pdf)
    lines = _content(parse(pdf).pages[1].markdown)
    assert lines[0] == "# Agenda", lines
    assert [line for line in lines if line.startswith("#")] == ["# Agenda"], lines
    for section in sections:
        assert section in lines, (section, lines)
    assert "- President" in lines and "- Elections" in lines, lines
