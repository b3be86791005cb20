"""Nested list items sit where CommonMark nests them: under the text of the item above, past
its marker (two spaces under ``- ``, three under ``1. ``, four under ``10. ``), checked with a
CommonMark parser, not only by the strings."""

from __future__ import annotations

from markdown_it import MarkdownIt

from pagereader.render.list_nesting import marker_indents

PARSER = MarkdownIt("commonmark")


def _depths(markdown: str) -> list[tuple[int, str]]:
    """(nesting depth, text) of each list item as a CommonMark parser reads it."""
    depth, out = 0, []
    for token in PARSER.parse(markdown):
        if token.type in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
        elif token.type == "inline" and depth:
            out.append((depth, token.content))
    return out


def test_items_under_numbers_nest_past_the_number() -> None:
    written = "1. Prepare\n  - Clean\n  - Dry\n    - Twice\n10. Assemble\n  - Fit"
    fixed = marker_indents(written)
    assert fixed == "1. Prepare\n   - Clean\n   - Dry\n     - Twice\n10. Assemble\n    - Fit"
    assert _depths(fixed) == [
        (1, "Prepare"),
        (2, "Clean"),
        (2, "Dry"),
        (3, "Twice"),
        (1, "Assemble"),
        (2, "Fit"),
    ]
    assert _depths(written)[1] == (1, "Clean")  # as written, two spaces do not nest under 1.


def test_bullets_blank_lines_and_paragraphs_keep_their_places() -> None:
    written = "- Board\n\n  - Chair\n\nClosing remarks\n\n  indented prose\n\n1) One\n  - a"
    assert marker_indents(written) == (
        "- Board\n\n  - Chair\n\nClosing remarks\n\n  indented prose\n\n1) One\n   - a"
    )
    assert _depths(marker_indents(written))[:2] == [(1, "Board"), (2, "Chair")]


def test_a_deck_numbered_list_with_sub_bullets_nests_in_the_page_markdown() -> None:
    from pagereader.render.markdown import page_markdown
    from pagereader.types import Block, BlockResult

    block = Block(kind="list", bbox=(0, 0, 100, 40), order=0, source="pptx")
    text = "1. Approve the minutes\n  - as circulated\n2. Elect the officers"
    markdown = page_markdown([BlockResult(block=block, text=text)])
    assert _depths(markdown) == [
        (1, "Approve the minutes"),
        (2, "as circulated"),
        (1, "Elect the officers"),
    ]
