"""Compressed bombs: a PDF stream or an office part that inflates to a gibibyte is refused
while it inflates, in one line naming the file and the limit, and the run goes on.

The bombs are made by code (adversarial/bombs.py); the whole-run tests parse them with the
real CLI under the peak-memory wrapper of test_peak_memory.py.
"""

from __future__ import annotations

import json
import zipfile
import zlib
from pathlib import Path

import pytest

from adversarial.bombs import (
    _zip,
    deflated_spaces,
    flate_bomb_pdf,
    pptx_bytes,
    whitespace_bomb_pptx,
)
from adversarial.documents import pdf_of_objects, text_pdf
from adversarial.test_peak_memory import PEAK_BOUND_BYTES, parse_peak
from pagereader.config.options import Options
from pagereader.config.settings import ENV_MAX_INFLATED_MB, resolve_options
from pagereader.errors import InflatesTooLargeError
from pagereader.sources import open_source
from pagereader.sources.limits import MIB, InflateLimits, InflateMeter, inflated_size
from pagereader.sources.office import check_package


def _status(out: Path, stem: str) -> str:
    (found,) = (out / stem).rglob("document.json")
    status: str = json.loads(found.read_text(encoding="utf-8"))["status"]
    return status


def _assert_refused_and_run_goes_on(bomb: Path, tmp_path: Path, part: str) -> None:
    good = text_pdf(tmp_path / "good.pdf")
    code, peak, stderr = parse_peak(tmp_path / "out", bomb, good)
    assert "Traceback" not in stderr, stderr
    assert code == 1, stderr
    assert peak < PEAK_BOUND_BYTES, f"peak {peak / MIB:.0f} MiB"
    (line,) = [ln for ln in stderr.splitlines() if ln.startswith("error ")]
    assert bomb.name in line and part in line, line
    assert "inflates past 256 MiB (limits.max_inflated_mb)" in line, line
    assert _status(tmp_path / "out", bomb.stem) == "failed"
    assert _status(tmp_path / "out", "good") == "ok"


@pytest.mark.slow
def test_a_pdf_whose_content_stream_inflates_to_a_gibibyte_is_refused(tmp_path: Path) -> None:
    bomb = flate_bomb_pdf(tmp_path / "bomb.pdf")
    assert bomb.stat().st_size < 2 * MIB
    _assert_refused_and_run_goes_on(bomb, tmp_path, "stream 4 0 R")


@pytest.mark.slow
def test_a_pptx_whose_slide_xml_inflates_to_a_gibibyte_is_refused(tmp_path: Path) -> None:
    bomb = whitespace_bomb_pptx(tmp_path / "deck.pptx")
    assert bomb.stat().st_size < 2 * MIB
    _assert_refused_and_run_goes_on(bomb, tmp_path, "part ppt/slides/slide1.xml")


# the bounded inflation itself


def _zlib(data: bytes) -> list[bytes]:
    packed = zlib.compress(data, 9)
    return [packed[i : i + 1000] for i in range(0, len(packed), 1000)]


def test_inflated_size_is_exact_within_the_limit_and_stops_a_piece_past_it() -> None:
    data = b"x" * (3 * MIB + 5)
    assert inflated_size(_zlib(data), 4 * MIB) == len(data)
    assert inflated_size(_zlib(data), len(data)) == len(data)
    past = inflated_size(_zlib(data), MIB)
    assert MIB < past <= 2 * MIB  # counted no further than the first mebibyte piece past it
    raw, _ = deflated_spaces(b"", 8 * MIB)
    assert inflated_size([raw], 100 * MIB, wbits=-15) == 8 * MIB
    assert inflated_size([b"not deflate at all"], MIB) == 0
    assert inflated_size([], MIB) == 0
    truncated = zlib.compress(data)[:2000]
    assert 0 < inflated_size([truncated], 4 * MIB) < len(data)


def test_the_meter_names_the_part_and_the_key_of_the_limit_it_passes() -> None:
    limits = InflateLimits(part=2 * MIB, document=5 * MIB)
    meter = InflateMeter(limits, file="a.pptx", parts="parts")
    assert meter.add([b"x" * MIB, b"x" * MIB], "part one.xml") == 2 * MIB
    with pytest.raises(InflatesTooLargeError) as part:
        meter.add([b"x" * MIB] * 3, "part two.xml")
    assert str(part.value).startswith(
        "a.pptx: part two.xml inflates past 2 MiB (limits.max_inflated_mb)"
    )
    meter.add_size(2 * MIB, "part three.png")
    with pytest.raises(InflatesTooLargeError) as total:
        meter.add([b"x" * MIB] * 2, "part four.xml")
    assert total.value.message == (
        "its parts inflate past 5 MiB together (limits.max_document_inflated_mb)"
    )


def test_the_limits_are_options_with_an_environment_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    defaults = Options().limits
    assert (defaults.max_inflated_mb, defaults.max_document_inflated_mb) == (256, 2048)
    assert InflateLimits() == InflateLimits.from_mb(256, 2048)
    monkeypatch.setenv(ENV_MAX_INFLATED_MB, "64")
    assert resolve_options().limits.max_inflated_mb == 64
    monkeypatch.setenv(ENV_MAX_INFLATED_MB, "0")
    with pytest.raises(Exception, match=r"limits\.max_inflated_mb"):
        resolve_options()


# PDF streams: every filter chain decoded here counts, whatever its spelling

_SMALL = InflateLimits(part=4 * MIB, document=12 * MIB)


def _stream_pdf(path: Path, dictionary: bytes, data: bytes, copies: int = 1) -> Path:
    """A one-page PDF with ``copies`` extra streams of ``data`` behind ``dictionary``."""
    streams = [
        b"<< %s /Length %d >>\nstream\n" % (dictionary, len(data)) + data + b"\nendstream"
    ] * copies
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"
    path.write_bytes(
        pdf_of_objects(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                page,
                *streams,
            ]
        )
    )
    return path


def _refused(path: Path, limits: InflateLimits = _SMALL) -> str:
    with pytest.raises(InflatesTooLargeError) as refused:
        open_source(path, password=None, max_image_pixels=16_000_000, inflate_limits=limits)
    return refused.value.message


def _accepted(path: Path, limits: InflateLimits = _SMALL) -> None:
    open_source(path, password=None, max_image_pixels=16_000_000, inflate_limits=limits).close()


def _spaces_zlib(size: int) -> bytes:
    raw, adler = deflated_spaces(b"", size, zlib.adler32)
    return b"\x78\xda" + raw + adler.to_bytes(4, "big")


@pytest.mark.parametrize(
    ("dictionary", "encode"),
    [
        (b"/Filter /FlateDecode", lambda d: d),
        (b"/Filter/Fl", lambda d: d),
        (b"/Filter /Fl#61teD#65code", lambda d: d),  # a name spelled with #xx escapes
        (b"/F#69lter [/FlateDecode]", lambda d: d),
        (b"/Filter [/ASCIIHexDecode /FlateDecode]", lambda d: d.hex().encode() + b">"),
        (b"/Filter 9 0 R", lambda d: d),  # indirect: the data is taken for what it looks like
        (b"/Filter [/FlateDecode /FlateDecode]", lambda d: zlib.compress(d)),
    ],
)
def test_a_stream_past_the_limit_is_refused_however_its_filters_are_written(
    tmp_path: Path, dictionary: bytes, encode: object
) -> None:
    assert callable(encode)
    pdf = _stream_pdf(tmp_path / "bomb.pdf", dictionary, encode(_spaces_zlib(8 * MIB)))
    assert _refused(pdf) == "stream 4 0 R inflates past 4 MiB (limits.max_inflated_mb)"


def test_a_double_deflate_is_refused_at_its_first_stage(tmp_path: Path) -> None:
    inner = zlib.compress(b" " * (64 * MIB), 9)  # the outer stage alone passes the limit
    pdf = _stream_pdf(tmp_path / "bomb.pdf", b"/Filter [/FlateDecode /DCTDecode]", inner)
    assert "inflates past 4 MiB" in _refused(pdf)


def test_streams_within_the_limit_pass_until_they_add_up_past_the_document_limit(
    tmp_path: Path,
) -> None:
    data = _spaces_zlib(3 * MIB)
    _accepted(_stream_pdf(tmp_path / "three.pdf", b"/Filter /FlateDecode", data, copies=3))
    many = _stream_pdf(tmp_path / "five.pdf", b"/Filter /FlateDecode", data, copies=5)
    assert _refused(many) == (
        "its streams inflate past 12 MiB together (limits.max_document_inflated_mb)"
    )


def test_embedded_files_and_undecoded_filters_are_not_counted(tmp_path: Path) -> None:
    data = _spaces_zlib(8 * MIB)
    _accepted(_stream_pdf(tmp_path / "a.pdf", b"/Type /EmbeddedFile /Filter /FlateDecode", data))
    _accepted(_stream_pdf(tmp_path / "b.pdf", b"/Filter /DCTDecode", data))
    _accepted(_stream_pdf(tmp_path / "c.pdf", b"", b"BT ET"))


# office packages: every member inflated from its own bytes


def test_a_package_part_past_the_limit_is_refused_even_when_its_header_says_it_is_small(
    tmp_path: Path,
) -> None:
    members = []
    with zipfile.ZipFile(__import__("io").BytesIO(pptx_bytes())) as deck:
        for info in deck.infolist():
            content = deck.read(info)
            padding = 8 * MIB if info.filename == "ppt/slides/slide1.xml" else 0
            data, crc = deflated_spaces(content, padding)
            stated = len(content) if padding else len(content) + padding  # the header lies
            members.append((info.filename, data, crc, stated))
    lying = tmp_path / "lying.pptx"
    lying.write_bytes(_zip(members))
    with pytest.raises(InflatesTooLargeError) as refused:
        check_package(lying, _SMALL)
    assert refused.value.message == (
        "part ppt/slides/slide1.xml inflates past 4 MiB (limits.max_inflated_mb)"
    )
    plain = tmp_path / "plain.pptx"
    plain.write_bytes(pptx_bytes())
    check_package(plain, _SMALL)
    whitespace_bomb_pptx(tmp_path / "honest.pptx", 8 * MIB)
    with pytest.raises(InflatesTooLargeError):
        check_package(tmp_path / "honest.pptx", _SMALL)
