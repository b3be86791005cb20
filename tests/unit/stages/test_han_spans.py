"""Han spans in Korean lines drawn with real fonts and read by the real readers: Hanja in
brackets are found and read (家事, 性), a Hangul word in brackets never is, though PP-OCR alone
reads some as a Han character, and a line without Hanja keeps its reading untouched."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from pagereader.engines import registry
from pagereader.evaluate.fonts import find_font
from pagereader.layout.parentheses import ink
from pagereader.protocols import LineRead
from pagereader.stages.han_spans import find_han_spans, read_han_spans

HANGUL = registry.script_reader("hangul")
HAN = registry.script_reader("han")
GOTHIC = find_font("nanum/NanumGothic.ttf", "fonts-nanum")
UMING = find_font("arphic/uming.ttc", "fonts-arphic-uming")


def _line(runs: list[str], size: int = 32) -> np.ndarray:
    """A line drawn run by run: Han runs in UMing, the rest in Nanum Gothic."""
    fonts = {
        True: ImageFont.truetype(str(UMING), size),
        False: ImageFont.truetype(str(GOTHIC), size),
    }
    width = int(sum(fonts["\u4e00" <= r[0] <= "\u9fff"].getlength(r) for r in runs)) + 40
    image = Image.new("RGB", (width, int(size * 1.5)), "white")
    draw = ImageDraw.Draw(image)
    x = 20.0
    for run in runs:
        font = fonts["\u4e00" <= run[0] <= "\u9fff"]
        draw.text((x, size * 0.25), run, font=font, fill="black")
        x += font.getlength(run)
    return np.asarray(image)


def test_hanja_are_found_and_hangul_words_are_not() -> None:
    crops = [
        _line(["부부는 일상의 가사(", "家事", ")에 관하여"]),
        _line(["이 법에서 성(", "性", ")폭력이란"]),
        _line(["제4조(신고) 사용자는 (정의) 및 (검사)"]),
    ]
    found = find_han_spans(crops, [ink(c) for c in crops], HAN, HANGUL)
    assert [[s.text for s in line] for line in found] == [["(家事)"], ["(性)"], []]


def test_a_line_is_read_again_around_its_hanja() -> None:
    crops = [_line(["부부는 일상의 가사(", "家事", ")에 관하여"]), _line(["제4조(신고) 사용자는"])]
    first = HANGUL.read(crops)
    read = read_han_spans(crops, first, HANGUL, HAN)
    assert read[0].text.replace(" ", "") == "부부는일상의가사(家事)에관하여"
    assert read[0].lead == first[0].lead
    assert read[1] == first[1]


def test_a_reading_that_has_the_hanja_already_is_kept() -> None:
    crops = [_line(["가사(", "家事", ")에"])]
    given = [LineRead("가사(家事)에", 0.9, 3.0)]
    assert read_han_spans(crops, given, HANGUL, HAN) == given
