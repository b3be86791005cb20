"""Fuzz the PDF and image sources with damaged copies of small files made here.

Random byte flips, truncations and, for PNG and PDF, rewritten size fields (with the PNG
checksum fixed so the decoder believes them) go to one long-lived worker process that opens
and renders each file. Every outcome must be a page or a PagereaderError: any other exception
is a failure, so is a file that takes longer than the timeout, and so is a worker whose peak
RSS passes the documented 1.5 GB bound (the worker's pixel budget is 16 M pixels).
"""

from __future__ import annotations

import io
import json
import queue
import re
import struct
import subprocess
import sys
import threading
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

pytestmark = pytest.mark.slow  # seconds of real engines, servers or processes

WORKER = Path(__file__).with_name("source_worker.py")
TIMEOUT_S = 60.0
PEAK_BOUND_KIB = 1_500 * 1024


def _picture(mode: str = "RGB") -> Image.Image:
    image = Image.new(mode, (96, 64), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((8, 8, 60, 30), outline="black", width=2)
    draw.text((10, 40), "Fuzz 42", fill="black")
    return image


def _saved(image: Image.Image, fmt: str, **kwargs: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **kwargs)
    return buffer.getvalue()


def _pdf() -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(300, 200), pageCompression=0)
    canvas.setFont("Helvetica", 12)
    canvas.drawString(20, 160, "Quarterly results, page one")
    canvas.drawImage(ImageReader(_picture()), 20, 40, width=96, height=64)
    canvas.showPage()
    canvas.drawString(20, 160, "Second page")
    canvas.rect(20, 20, 100, 60)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _tiff() -> bytes:
    first, second = _picture("L"), _picture("1")
    return _saved(first, "TIFF", save_all=True, append_images=[second], dpi=(72, 72))


FIXTURES: dict[str, bytes] = {
    ".pdf": _pdf(),
    ".png": _saved(_picture("RGBA"), "PNG", dpi=(60, 60)),
    ".jpg": _saved(_picture(), "JPEG", quality=80),
    ".tif": _tiff(),
    ".webp": _saved(_picture(), "WEBP"),
    ".bmp": _saved(_picture("P"), "BMP"),
}


@dataclass
class Worker:
    """The child that opens the files, and a reader thread so a hang cannot block the test."""

    process: subprocess.Popen[str]
    answers: queue.Queue[str]
    folder: Path
    count: int = 0

    def run(self, suffix: str, data: bytes) -> dict[str, object]:
        self.count += 1
        path = self.folder / f"case{self.count}{suffix}"
        path.write_bytes(data)
        assert self.process.stdin is not None
        self.process.stdin.write(f"{path}\n")
        self.process.stdin.flush()
        try:
            line = self.answers.get(timeout=TIMEOUT_S)
        except queue.Empty:
            self.process.kill()
            pytest.fail(f"no answer within {TIMEOUT_S:.0f} s for a damaged {suffix}: {path}")
        path.unlink()
        answer: dict[str, object] = json.loads(line)
        return answer


@pytest.fixture(scope="module")
def worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Worker]:
    process = subprocess.Popen(
        [sys.executable, str(WORKER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )
    answers: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            answers.put(line)

    threading.Thread(target=pump, daemon=True).start()
    yield Worker(process, answers, tmp_path_factory.mktemp("fuzz"))
    process.kill()
    process.wait()


def _png_with_size(data: bytes, width: int, height: int) -> bytes:
    """The PNG with its IHDR size rewritten and the chunk's CRC recomputed."""
    body = b"IHDR" + struct.pack(">II", width, height) + data[24:29]
    return data[:16] + body[4:] + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF) + data[33:]


def _pdf_with_size(data: bytes, width: int, height: int) -> bytes:
    return re.sub(rb"/MediaBox \[[^\]]*\]", f"/MediaBox [0 0 {width} {height}]".encode(), data)


@st.composite
def damaged(draw: st.DrawFn) -> tuple[str, bytes]:
    """A fixture with a few bytes changed, maybe cut short, maybe with a new size field."""
    suffix = draw(st.sampled_from(sorted(FIXTURES)))
    data = bytearray(FIXTURES[suffix])
    if suffix in (".png", ".pdf") and draw(st.booleans()):
        width = draw(st.integers(min_value=0, max_value=200_000))
        height = draw(st.integers(min_value=0, max_value=200_000))
        resize = _png_with_size if suffix == ".png" else _pdf_with_size
        data = bytearray(resize(bytes(data), width, height))
    flips = draw(
        st.lists(
            st.tuples(st.integers(0, len(data) - 1), st.integers(0, 255)), min_size=0, max_size=8
        )
    )
    for position, value in flips:
        data[position] = value
    if draw(st.booleans()):
        data = data[: draw(st.integers(min_value=1, max_value=len(data)))]
    return suffix, bytes(data)


@settings(
    max_examples=120,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=damaged())
def test_damaged_sources_give_pages_or_pagereader_errors(
    worker: Worker, case: tuple[str, bytes]
) -> None:
    suffix, data = case
    answer = worker.run(suffix, data)
    assert answer["outcome"] in ("ok", "error"), answer.get("trace")
    assert int(str(answer["max_rss_kib"])) < PEAK_BOUND_KIB


def test_the_undamaged_fixtures_render(worker: Worker) -> None:
    for suffix, data in FIXTURES.items():
        answer = worker.run(suffix, data)
        assert answer["outcome"] == "ok" and answer["page_errors"] == [], (suffix, answer)
