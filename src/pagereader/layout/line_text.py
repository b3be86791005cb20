"""Lines as running text: how a block's lines join (spaces, CJK, hyphens at a wrap), the box
that holds them, and a line's type size."""

from __future__ import annotations

from collections.abc import Sequence

from pagereader.text.chars import is_cjk
from pagereader.text.hyphens import keeps_hyphen, vocabulary
from pagereader.types import BBox, Block, TextLine


def size_of(line: TextLine) -> float:
    """Font size when the source knows it, else the line's box height (OCR lines)."""
    return line.font_size if line.font_size > 0 else line.bbox[3] - line.bbox[1]


def union(boxes: Sequence[BBox]) -> BBox:
    """Smallest box holding all the given boxes."""
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _is_spaced(ch: str) -> bool:
    """Letters of scripts that put spaces between words (Latin, Hangul, Cyrillic, ...)."""
    return ch.isalpha() and not is_cjk(ch)


def join_lines(lines: Sequence[TextLine], context: Sequence[TextLine] = ()) -> str:
    """Join lines as running text: no space next to CJK text, a space between other words.

    A hyphen at a line's end joins the next line without a space; it stays unless the word was
    broken (hyphens.py decides, from the words of ``lines`` and ``context``, e.g. the page's
    other lines); a soft hyphen always goes. Hangul keeps its spaces since Korean separates
    words.
    """
    out = ""
    words: frozenset[str] | None = None

    def known() -> frozenset[str]:
        nonlocal words
        if words is None:
            words = vocabulary(line.text for line in (*lines, *context))
        return words

    for line in lines:
        text = line.text.strip()
        if not text:
            continue
        if not out:
            out = text
            continue
        last, first = out[-1], text[0]
        if last == "\u00ad":
            out = out[:-1] + text
        elif last == "-" and _wraps_word(out, first):
            out = (out if keeps_hyphen(out, text, known) else out[:-1]) + text
        elif (is_cjk(last) and not _is_spaced(first)) or (is_cjk(first) and not _is_spaced(last)):
            out += text
        else:
            out += " " + text
    return out


def _wraps_word(out: str, first: str) -> bool:
    """A hyphen right after a letter or digit, and the next line going on with one."""
    before = out[-2] if len(out) >= 2 else ""
    return before.isalnum() and first.isalnum() and not (is_cjk(before) or is_cjk(first))


def block_text(block: Block) -> str:
    """The running text of a block's lines."""
    return join_lines(block.lines)
