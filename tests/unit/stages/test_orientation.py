"""Orientation needs strong evidence; noise lines go before layout (pure parts, no models)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pagereader.protocols import Detection, LineRead
from pagereader.stages import script
from pagereader.stages.page_ocr import drop_noise, off_script
from pagereader.stages.script import TURN_MARGIN, Reading, choose_turn, tall_share
from pagereader.types import TextLine


def _quad(x: float, y: float, w: float, h: float) -> list[list[float]]:
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]


def test_upright_page_stays_when_the_turned_reading_is_not_far_better() -> None:
    # a Korean page read by a model without Hangul: weak both ways, it must not turn
    assert choose_turn(False, Reading(0.23, ""), Reading(0.11, ""))[0] == 0
    assert choose_turn(False, Reading(0.64, ""), Reading(0.06, ""))[0] == 0
    # turned reading confident but not far enough ahead
    close = 0.9 - TURN_MARGIN + 0.05
    assert choose_turn(False, Reading(close, ""), Reading(0.9, ""))[0] == 0
    # turned reading far ahead but itself unsure
    assert choose_turn(False, Reading(0.2, ""), Reading(0.6, ""))[0] == 0


def test_upside_down_page_turns_half_a_turn() -> None:
    angle, why = choose_turn(False, Reading(0.5, ""), Reading(0.99, ""))
    assert angle == 180
    assert "0.50" in why and "0.99" in why


def test_sideways_page_turns_the_way_that_reads() -> None:
    assert choose_turn(True, Reading(0.98, ""), Reading(0.6, ""))[0] == 90
    assert choose_turn(True, Reading(0.6, ""), Reading(0.98, ""))[0] == 270
    assert choose_turn(True, Reading(0.5, ""), Reading(0.45, ""))[0] == 0


def test_tall_share_counts_lines_running_down_the_page() -> None:
    wide = [_quad(10, 20 * i, 300, 18) for i in range(5)]
    tall = [_quad(20 * i, 10, 18, 300) for i in range(3)]
    square = [_quad(0, 0, 20, 20)]
    detection = Detection(size=(400, 400), quads=np.asarray(wide + tall + square, np.float32))
    assert tall_share(detection) == 3 / 8
    assert tall_share(Detection(size=(1, 1))) == 0.0


def _line(text: str, confidence: float, y: float = 0.0) -> TextLine:
    return TextLine(text=text, bbox=(10.0, y, 200.0, y + 12.0), confidence=confidence)


def test_off_script() -> None:
    assert off_script("Mee Sa hh gt ne ORCAS", "hangul")
    assert not off_script("제15조 모든 국민은 (1)", "hangul")
    assert not off_script("Article 5", "mixed")


def test_noise_lines_are_dropped_outside_text_regions_only() -> None:
    body = _line("모든 국민은 양심의 자유를 가진다.", 0.93, y=100)
    speck_out = _line("Mee Sa hh gt ne", 0.55, y=500)
    speck_in = _line("Oe ew tee oe Lea", 0.55, y=120)
    junk = _line("모든 국민", 0.2, y=130)
    empty = TextLine(text="", bbox=(0.0, 0.0, 5.0, 5.0), confidence=0.1)
    regions = [("text", (0.0, 90.0, 300.0, 160.0), 0.9)]
    kept = drop_noise([body, speck_out, speck_in, junk, empty], regions, "hangul")
    assert kept == [body, speck_in, empty]


class RecordedReader:
    """A Hangul reader that gives readings Tesseract's Korean model gave on real lines."""

    name = "tesseract"
    install = "apt-get install -y tesseract-ocr-kor"

    def __init__(self, reads: list[LineRead]) -> None:
        self.reads = reads

    def available(self) -> bool:
        return True

    def read(self, crops: Sequence[np.ndarray]) -> list[LineRead]:
        assert len(crops) == len(self.reads)
        return self.reads


def test_a_sampled_line_read_as_nothing_does_not_sink_the_hangul_probe() -> None:
    # Tesseract at times skips a whole clean row of a strip: three sure Korean readings and
    # one empty one are a Korean page (the empty one counted as 0 made the mean 0.69)
    reads = [
        LineRead("다음 분기 한국어 인식 정확", 0.91, 15.0),
        LineRead("슬라이드당 처리 시간을", 0.91, 10.0),
        LineRead("스캔 계약서는 고밀도 모델", 0.93, 11.0),
        LineRead("", 0.0, None),
    ]
    crops = [np.full((40, 400, 3), 255, dtype=np.uint8) for _ in reads]
    korean, said = script.HangulProbe(crops, RecordedReader(reads)).answer()
    assert korean
    assert "confidence 0.92" in said


def test_unsure_readings_are_not_korean() -> None:
    reads = [LineRead("문서 처리 현황 보고 하루 평균", 0.5, 0.0), LineRead("", 0.0, None)]
    crops = [np.full((40, 400, 3), 255, dtype=np.uint8) for _ in reads]
    assert not script.HangulProbe(crops, RecordedReader(reads)).korean()
