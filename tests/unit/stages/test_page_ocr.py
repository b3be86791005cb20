"""Reading a Korean scan's lines once: missed lines found by coverage, re-read in one strip."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from pagereader.engines import registry
from pagereader.engines.tesseract import read_line_strip, tesseract_available
from pagereader.protocols import LineRead
from pagereader.stages.page_ocr import (
    _CIRCLED,
    _with_number,
    may_lead_with_number,
    reread_doubtful,
    restore_circled_numbers,
    split_even,
)
from pagereader.types import TextLine

HANGUL = registry.script_reader("hangul")
NUMBERS = registry.script_reader("unknown")  # PP-OCR, which knows circled numbers

NANUM = Path("/usr/share/fonts/truetype/nanum/NanumMyeongjo.ttf")


def test_split_even_balances_weight_in_order() -> None:
    assert split_even([1, 1, 1, 1], 2) == [(0, 2), (2, 4)]
    assert split_even([5, 1, 1, 1, 1, 1], 2) == [(0, 1), (1, 6)]
    assert split_even([1, 1], 4) == [(0, 1), (1, 2)]
    assert split_even([3.0], 1) == [(0, 1)]
    assert split_even([], 2) == []


@pytest.mark.skipif(not tesseract_available(), reason="needs Tesseract (kor)")
def test_strip_reading_gives_each_crop_its_own_text() -> None:
    texts = ["모든 국민은 양심의 자유를 가진다.", "국교는 인정되지 아니한다.", ""]
    font = ImageFont.truetype(str(NANUM), 32)
    crops = []
    for text in texts:
        image = Image.new("RGB", (700, 50), "white")
        ImageDraw.Draw(image).text((10, 6), text, font=font, fill="black")
        crops.append(image)
    read = read_line_strip(crops, "kor")
    assert len(read) == 3
    for (got, confidence, lead), want in zip(read[:2], texts[:2], strict=True):
        assert got.replace(" ", "") == want.replace(" ", ""), got
        assert confidence > 0.7
        assert lead is not None and lead < crops[0].height  # read from the crop's start
    assert read[2] == ("", 0.0, None)


def test_clause_number_misread_by_tesseract_is_read_again() -> None:
    font = ImageFont.truetype(str(NANUM), 32)
    image = Image.new("RGB", (800, 60), "white")
    ImageDraw.Draw(image).text(
        (20, 10), "② 모든 국민은 양심의 자유를 가진다.", font=font, fill="black"
    )
    left, top, right, bottom = ImageDraw.Draw(image).textbbox(
        (20, 10), "② 모든 국민은 양심의 자유를 가진다.", font=font
    )
    misread = TextLine(
        text="(2 모든 국민은 양심의 자유를 가진다.",
        bbox=(float(left), float(top), float(right), float(bottom)),
        confidence=0.9,
    )
    plain = misread.model_copy(update={"text": "모든 국민은", "bbox": (300.0, 10.0, 500.0, 45.0)})
    fixed = restore_circled_numbers(image, [misread, plain], NUMBERS)
    assert fixed[0].text == "② 모든 국민은 양심의 자유를 가진다."
    assert fixed[1] == plain


def test_a_circled_number_may_carry_a_piece_of_the_next_glyph() -> None:
    """The crop ends inside the next glyph, which PP-OCR reads as a letter, with or without a
    space before it; two letters or more are words, not a clause number."""
    for reading in ("②", "②5", "② 5", "③元"):
        assert _CIRCLED.match(reading), reading
    for reading in ("②人間", "2", "(2", "제②"):
        assert not _CIRCLED.match(reading), reading


def test_a_number_misread_into_the_first_word_gives_way() -> None:
    assert _with_number("(8모든 국민은", "①") == "① 모든 국민은"
    assert _with_number("(2 모든 국민은", "②") == "② 모든 국민은"
    assert _with_number("모든 국민은", "③") == "③ 모든 국민은"
    # a parenthesised Hangul item is not a misread number
    assert _with_number("(가) 국민은", "①") == "① (가) 국민은"


@pytest.mark.slow
@pytest.mark.skipif(not tesseract_available(), reason="needs Tesseract (eng)")
def test_a_stack_taller_than_tesseract_takes_is_read_in_parts() -> None:
    """Tesseract refuses images over 32767 pixels a side ("Image too large"): a page with that
    many lines is stacked in several strips, and every line is still read."""
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 40)
    crops = []
    for number in range(330):
        image = Image.new("RGB", (420, 90), "white")
        ImageDraw.Draw(image).text((10, 20), f"line {number}", font=font, fill="black")
        crops.append(image)
    assert sum(c.height + 24 for c in crops) > 32767
    read = read_line_strip(crops, "eng")
    assert len(read) == len(crops)
    right = sum(r.text.replace(" ", "") == f"line{number}" for number, r in enumerate(read))
    assert right >= 0.95 * len(crops)


def test_only_lines_that_may_hide_a_clause_number_are_read_again() -> None:
    """A line read from its crop's left edge starting with a Hangul syllable holds no clause
    number; one that starts with anything else (a misread number, a bracket run into the
    word), starts well inside its crop (the number dropped) or was read as nothing may."""
    height = 40
    assert not may_lead_with_number("모든 국민은 양심의 자유를", 2.0, height)
    assert may_lead_with_number("(2 모든 국민은", 2.0, height)
    assert may_lead_with_number("① 모든 국민은", 2.0, height)
    assert may_lead_with_number("• 국교는", 3.0, height)
    assert may_lead_with_number("(8모든 국민은", 2.0, height)
    assert may_lead_with_number("(모든국민의 재산권은", 2.0, height)  # ① read as "("
    assert may_lead_with_number("모든 국민은", 45.0, height)  # a glyph before it was dropped
    assert may_lead_with_number("", None, height)


def test_lines_not_named_keep_their_reading_unread() -> None:
    """Only the named lines are read again: a misread line left out keeps its misreading."""
    font = ImageFont.truetype(str(NANUM), 32)
    image = Image.new("RGB", (800, 60), "white")
    text = "② 모든 국민은 양심의 자유를 가진다."
    ImageDraw.Draw(image).text((20, 10), text, font=font, fill="black")
    left, top, right, bottom = ImageDraw.Draw(image).textbbox((20, 10), text, font=font)
    box = (float(left), float(top), float(right), float(bottom))
    misread = TextLine(text="(2 모든 국민은 양심의 자유를 가진다.", bbox=box, confidence=0.9)
    assert restore_circled_numbers(image, [misread], NUMBERS, numbered=set()) == [misread]
    fixed = restore_circled_numbers(image, [misread], NUMBERS, numbered={box})
    assert fixed[0].text == text


def _line_crop(text: str, size: int = 32, mirrored: bool = False) -> Image.Image:
    font = ImageFont.truetype(str(NANUM), size)
    image = Image.new("RGB", (24 * size, int(size * 1.6)), "white")
    ImageDraw.Draw(image).text((10, size // 5), text, font=font, fill="black")
    return image.transpose(Image.Transpose.FLIP_LEFT_RIGHT) if mirrored else image


@pytest.mark.skipif(not tesseract_available(), reason="needs Tesseract (kor)")
def test_a_doubtful_strip_reading_gives_way_to_a_surer_one_alone() -> None:
    text = "모든 국민은 양심의 자유를 가진다."
    crops = [np.asarray(_line_crop(text)), np.asarray(_line_crop("국교는 인정되지 아니한다."))]
    junk = LineRead("뜨세 정리 언원 보고", 0.7, 10.0)
    sure = LineRead("국교는 인정되지 아니한다.", 0.95, 10.0)
    with ThreadPoolExecutor(max_workers=2) as pool:
        read = reread_doubtful(crops, [junk, sure], HANGUL, pool)
    assert read[0].text.replace(" ", "") == text.replace(" ", "")
    assert read[0].confidence > 0.8
    assert read[1] is sure  # a sure line is not read again


@pytest.mark.skipif(not tesseract_available(), reason="needs Tesseract (kor)")
def test_a_line_read_as_nothing_takes_only_a_sure_reading() -> None:
    # the next page's text seen through the paper: mirrored, read alone as unsure junk
    mirrored = np.asarray(_line_crop("모든 국민은 양심의 자유를 가진다.", mirrored=True))
    nothing = LineRead("", 0.0, None)
    with ThreadPoolExecutor(max_workers=1) as pool:
        assert reread_doubtful([mirrored], [nothing], HANGUL, pool) == [nothing]
        clean = np.asarray(_line_crop("국교는 인정되지 아니한다."))
        again = reread_doubtful([clean], [nothing], HANGUL, pool)[0]
    assert again.text.replace(" ", "") == "국교는인정되지아니한다."
