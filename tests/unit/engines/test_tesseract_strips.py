"""Reading a strip of line crops: one reading a crop, and a block whose lines all read as
nothing is not read again as a block."""

from __future__ import annotations

import asyncio

from PIL import Image

from pagereader.config.options import TesseractEngineOptions
from pagereader.engines.tesseract import TesseractEngine, without_shadows
from pagereader.protocols import BlockRequest
from pagereader.types import Block, TextLine


def _line(text: str, box: tuple[float, float, float, float], confidence: float) -> TextLine:
    return TextLine(text=text, bbox=box, confidence=confidence)


def test_a_shadow_inside_a_surer_part_is_dropped() -> None:
    title = _line("도입 일정 및 역할 분담", (37, 42, 938, 131), 0.97)
    shadow = _line("ㅇ 01 0! ㅁ 한 브 ㄷ", (131, 42, 911, 89), 0.68)
    assert without_shadows([shadow, title]) == [title]


def test_parts_side_by_side_are_all_kept() -> None:
    left = _line("제10조", (10, 5, 120, 50), 0.9)
    right = _line("모든 국민은", (140, 5, 500, 50), 0.6)
    assert without_shadows([left, right]) == [left, right]


def test_of_two_overlapping_parts_the_surer_stays() -> None:
    sure = _line("국교는", (10, 5, 200, 50), 0.95)
    unsure = _line("국교", (20, 8, 190, 48), 0.5)
    assert without_shadows([unsure, sure]) == [sure]


def _request(lines: tuple[TextLine, ...]) -> BlockRequest:
    block = Block(kind="text", bbox=(0, 0, 400, 60), lines=lines, source="ocr")
    image = Image.new("RGB", (400, 60), "white")
    return BlockRequest(
        file="scan.pdf",
        page=1,
        block=block,
        task="text",
        image=image,
        page_image=image,
        scale=1.0,
        page_class="scan",
        script="hangul",
        min_pixels=0,
        max_pixels=10**7,
    )


def test_a_block_whose_lines_all_read_as_nothing_stays_empty() -> None:
    # a missing binary proves Tesseract is not run again on the block's pixels
    engine = TesseractEngine(TesseractEngineOptions(binary="/nonexistent/tesseract"))
    lines = (_line("", (0, 0, 400, 28), 0.0), _line("", (0, 30, 400, 58), 0.0))
    got = asyncio.run(engine.recognize(_request(lines)))
    assert got.text == "" and got.confidence == 0.0
    assert "read as nothing" in got.detail


def test_a_block_with_lines_read_keeps_them() -> None:
    engine = TesseractEngine(TesseractEngineOptions(binary="/nonexistent/tesseract"))
    read = _line("국교는 인정되지 아니한다.", (0, 0, 400, 28), 0.9)
    lines = (read, _line("", (0, 30, 400, 58), 0))
    got = asyncio.run(engine.recognize(_request(lines)))
    assert got.text == "국교는 인정되지 아니한다." and got.confidence == 0.9
