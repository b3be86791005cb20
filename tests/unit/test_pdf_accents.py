"""Accents set as glyphs of their own (as TeX sets them in fonts of the 1980s) are read as the
letters they sit on; doubled single quotes as the double quote they print. PDFs written here
glyph by glyph with reportlab, read back through pypdfium2."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from pagereader.sources import open_source
from pagereader.types import TextLine

FONT = "DejaVuSans"
SIZE = 11.0
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


@pytest.fixture(autouse=True)
def _font() -> None:
    pdfmetrics.registerFont(TTFont(FONT, str(DEJAVU)))


@dataclass
class Line:
    """A line set glyph by glyph: letters in order, accents drawn where and when TeX draws them."""

    y: float
    x: float = 72.0
    glyphs: list[tuple[float, float, str]] = field(default_factory=list)
    later: list[tuple[float, float, str]] = field(default_factory=list)

    def word(self, text: str) -> Line:
        for ch in text:
            self.glyphs.append((self.x, self.y, ch))
            self.x += pdfmetrics.stringWidth(ch, FONT, SIZE)
        return self

    def space(self) -> Line:
        self.x += pdfmetrics.stringWidth(" ", FONT, SIZE)
        return self

    def accented(self, letter: str, accent: str, *, at_line_end: bool = False) -> Line:
        """``letter`` with ``accent`` centred over it (under it for a cedilla), drawn at once
        or after the rest of the line."""
        width = pdfmetrics.stringWidth(letter, FONT, SIZE)
        mark = pdfmetrics.stringWidth(accent, FONT, SIZE)
        lift = -0.05 * SIZE if accent == "¸" else 0.22 * SIZE
        placed = (self.x + (width - mark) / 2, self.y + lift, accent)
        (self.later if at_line_end else self.glyphs).append(placed)
        return self.word(letter)

    def text(self, text: str) -> Line:
        """Glyphs as one run (PDFium sees the font's spacing)."""
        self.glyphs.append((self.x, self.y, text))
        self.x += pdfmetrics.stringWidth(text, FONT, SIZE)
        return self


def _read(tmp_path: Path, lines: list[Line]) -> list[TextLine]:
    path = tmp_path / "accents.pdf"
    sheet = canvas.Canvas(str(path), pagesize=A4)
    sheet.setFont(FONT, SIZE)
    for line in lines:
        for x, y, text in [*line.glyphs, *line.later]:
            sheet.drawString(x, y, text)
    sheet.save()
    source = open_source(path, password=None, max_image_pixels=50_000_000)
    try:
        return list(source.render(1, 72).lines)
    finally:
        source.close()


def _lines(tmp_path: Path, lines: list[Line]) -> list[str]:
    return [line.text for line in _read(tmp_path, lines)]


def test_accents_drawn_apart_are_read_with_their_letters(tmp_path: Path) -> None:
    line = Line(700).word("We thank J").accented("a", "´").word("n Min")
    line.accented("a", "´").accented("c", "ˇ", at_line_end=True).word(" and Nguy")
    line.accented("e", "ˆ").word("n").space().word("for their ").accented("c", "¸").word("a.")
    assert _lines(tmp_path, [line]) == ["We thank Ján Mináč and Nguyên for their ça."]


def test_an_accent_drawn_after_its_word_leaves_no_space_in_it(tmp_path: Path) -> None:
    line = Line(700).word("Isidora Jim")
    line.accented("e", "´", at_line_end=True).word("nez and B").accented("u", "¨")
    line.word("hler")
    assert _lines(tmp_path, [line]) == ["Isidora Jiménez and Bühler"]


def test_an_accent_over_a_dotless_i_makes_the_accented_i(tmp_path: Path) -> None:
    line = Line(700).word("Mart").accented("ı", "´").word("nez")
    assert _lines(tmp_path, [line]) == ["Martínez"]


@pytest.mark.parametrize(
    "text",
    ["the derivative f´(x) of f", "a ~ b holds", "press ^ then x", "run `make` here"],
)
def test_accents_over_no_letter_stay_as_printed(tmp_path: Path, text: str) -> None:
    assert _lines(tmp_path, [Line(700).text(text)]) == [text]


def test_doubled_single_quotes_are_the_double_quote(tmp_path: Path) -> None:
    lines = [
        Line(700).text("The term ‘‘corporate social responsibility’’ is in vogue."),
        Line(660).text("A ‘single’ quote and rock ’n’ roll stay as they are."),
    ]
    assert _lines(tmp_path, lines) == [
        "The term “corporate social responsibility” is in vogue.",
        "A ‘single’ quote and rock ’n’ roll stay as they are.",
    ]


def test_a_pile_of_accents_over_one_letter_stays_as_printed(tmp_path: Path) -> None:
    """A letter takes the accents Unicode composes into one character (é, ǘ); the rest of a
    pile stays, so each character of the line keeps its own box."""
    line = Line(700).word("pil")
    for accent in "´`ˇ¨":
        line.glyphs.append((line.x + 1.5, line.y + 0.22 * SIZE, accent))
    line.word("e up")
    (read,) = _read(tmp_path, [line])
    assert read.text.startswith("pil") and "é" in read.text
    assert sorted(ch for ch in read.text if ch in "´`ˇ¨") == sorted("`ˇ¨")
    assert len(read.text) == len(read.char_boxes)
