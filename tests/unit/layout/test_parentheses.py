"""Round brackets found by the bow of their strokes in lines drawn with real fonts: every
bracket and nothing else, not the straight strokes of ㅣ, l and 1 nor ㅓ and ㅏ, whose bars
stick out on one side."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from pagereader.evaluate.fonts import find_font
from pagereader.layout.parentheses import bracket_spans, find_brackets, ink

FONTS = {
    "NanumGothic": ("nanum/NanumGothic.ttf", "fonts-nanum"),
    "NanumMyeongjo": ("nanum/NanumMyeongjo.ttf", "fonts-nanum"),
    "DejaVuSans": ("dejavu/DejaVuSans.ttf", "fonts-dejavu-core"),
}
LINE = "어머니(아버지)는 1l 이다 (서)가 거기 있다."


def _line(font_file: str, size: int, text: str) -> np.ndarray:
    font = ImageFont.truetype(font_file, size)
    _, top, right, bottom = font.getbbox(text)
    image = Image.new("RGB", (int(right) + 20, int(bottom - top) + 16), "white")
    ImageDraw.Draw(image).text((10, 8 - top), text, font=font, fill="black")
    return np.asarray(image)


@pytest.mark.parametrize("size", [24, 40])
@pytest.mark.parametrize("name", sorted(FONTS))
def test_brackets_and_nothing_else(name: str, size: int) -> None:
    font_file = str(find_font(*FONTS[name]))
    crop = _line(font_file, size, LINE)
    found = find_brackets(ink(crop))
    assert [b.kind for b in found] == ["(", ")", "(", ")"]
    spans = bracket_spans(found, crop.shape[0])
    assert len(spans) == 2
    font = ImageFont.truetype(font_file, size)
    opening = 10 + font.getlength(LINE[: LINE.index("(")])
    assert abs(spans[0][0].left - opening) <= size * 0.2
    assert [(o.kind, c.kind) for o, c in spans] == [("(", ")")] * 2


def test_a_span_opened_twice_starts_at_the_second_opening() -> None:
    font_file = str(find_font(*FONTS["NanumGothic"]))
    crop = _line(font_file, 32, "가 (나 (다) 라")
    found = find_brackets(ink(crop))
    spans = bracket_spans(found, crop.shape[0])
    assert [b.kind for b in found] == ["(", "(", ")"]
    assert spans == [(found[1], found[2])]
