"""Tesseract (Debian's tesseract-ocr): the classic baseline, and the reader for Korean.

``OMP_THREAD_LIMIT=1`` makes it 2-3x faster on small machines. Blocks are read with ``--psm 6``
(one uniform block); whole Korean pages with ``--psm 3`` (stages/page_ocr.py), which on real
scans kept bleed-through out where block-by-block reading let it in.
"""

from __future__ import annotations

import asyncio
import csv
import io
import itertools
import os
import re
import shutil
import statistics
import subprocess
import time
from collections.abc import Sequence

import numpy as np
from PIL import Image

from pagereader.config.options import TesseractEngineOptions
from pagereader.config.settings import tesseract_binary
from pagereader.engines.base import BlockRequest, EmbeddedEngine
from pagereader.errors import DependencyError, EngineError
from pagereader.protocols import LineRead
from pagereader.types import TEXT_KINDS, Recognition, TextLine

TESSERACT_INSTALL = (
    "apt-get install -y tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-tra tesseract-ocr-kor"
)
TESSERACT_HINT = f"install Tesseract (Debian/Ubuntu: {TESSERACT_INSTALL})"
# Hangul pages read with kor alone: with +eng, Tesseract turns Korean words and circled
# paragraph numbers into Latin strings (0.94 against 0.97-0.99 on real statute scans).
LANGS_BY_SCRIPT: dict[str, str] = {
    "latin": "eng",
    "han": "chi_tra+eng",
    "hangul": "kor",
    "mixed": "eng+chi_tra+kor",
    "unknown": "eng",
}
_ENV = {**os.environ, "OMP_THREAD_LIMIT": "1"}
_CJK_SPACE = re.compile(
    r"(?<=[\u3000-\u9fff\uf900-\ufaff\uff00-\uffef])\s+(?=[\u3000-\u9fff\uf900-\ufaff\uff00-\uffef])"
)


def tesseract_available(binary: str | None = None) -> bool:
    """Whether the tesseract executable can be found."""
    return shutil.which(binary or tesseract_binary()) is not None


def _grey(image: Image.Image) -> Image.Image | None:
    """The image in grey when it holds no colour (a grey scan rendered as RGB), else None."""
    if image.mode in ("L", "1"):
        return image
    if image.mode != "RGB":
        return None
    pixels = np.asarray(image)
    red = pixels[:, :, 0]
    if np.array_equal(red, pixels[:, :, 1]) and np.array_equal(red, pixels[:, :, 2]):
        return Image.fromarray(red)
    return None


def tesseract_input(image: Image.Image) -> bytes:
    """The image as Tesseract reads it from stdin. Grey pixels go as raw PGM, which costs
    nothing to write or read: PNG costs an encoding here and a decoding in Tesseract (a Korean
    page's line strips: 1.93 -> 1.67 CPU s, the same text). Tesseract reads a grey image as it
    reads the same pixels in RGB; colour goes as PNG at the fastest compression (it only
    crosses a pipe), since Tesseract thresholds each colour channel on its own."""
    buffer = io.BytesIO()
    grey = _grey(image)
    if grey is not None:
        grey.convert("L").save(buffer, format="PPM")
    else:
        image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def _run(image: Image.Image, args: list[str], binary: str, timeout_s: float) -> str:
    if not tesseract_available(binary):
        raise DependencyError("Tesseract is not installed", hint=TESSERACT_HINT)
    done = subprocess.run(
        [binary, "stdin", "stdout", *args],
        input=tesseract_input(image),
        capture_output=True,
        timeout=timeout_s,
        env=_ENV,
        check=False,
    )
    if done.returncode != 0:
        raise EngineError(f"tesseract failed: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout.decode("utf-8", errors="replace")


_MISREAD_BULLET = re.compile(r"^[@®©°«»¢*eo]\s+(?=[\u3000-\u9fff\uac00-\ud7a3])")


def clean_text(text: str) -> str:
    """Tesseract puts spaces between CJK characters (removed) and reads a round bullet before
    CJK text as "@", "e" or "®" (written back as "•"); line breaks are kept."""
    lines = [
        _MISREAD_BULLET.sub("• ", _CJK_SPACE.sub("", line).strip()) for line in text.splitlines()
    ]
    return "\n".join(line for line in lines if line)


def tesseract_text(
    image: Image.Image, lang: str, psm: int = 6, binary: str | None = None, timeout_s: float = 60
) -> str:
    """Plain text of an image."""
    return clean_text(
        _run(image, ["-l", lang, "--psm", str(psm)], binary or tesseract_binary(), timeout_s)
    )


def tesseract_lines(
    image: Image.Image, lang: str, psm: int = 6, binary: str | None = None, timeout_s: float = 60
) -> list[TextLine]:
    """Text lines with boxes (pixels), from Tesseract's TSV output."""
    tsv = _run(
        image, ["-l", lang, "--psm", str(psm), "tsv"], binary or tesseract_binary(), timeout_s
    )
    words: dict[tuple[int, int, int], list[tuple[str, float, tuple[int, int, int, int]]]] = {}
    for row in csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE):
        text = (row.get("text") or "").strip()
        if row.get("level") != "5" or not text:
            continue
        key = (int(row["block_num"]), int(row["par_num"]), int(row["line_num"]))
        left, top = int(row["left"]), int(row["top"])
        box = (left, top, left + int(row["width"]), top + int(row["height"]))
        words.setdefault(key, []).append((text, float(row["conf"]), box))
    lines = []
    for items in words.values():
        text = clean_text(_join_words(items))
        bbox = (
            float(min(w[2][0] for w in items)),
            float(min(w[2][1] for w in items)),
            float(max(w[2][2] for w in items)),
            float(max(w[2][3] for w in items)),
        )
        confidence = sum(w[1] for w in items) / len(items) / 100.0
        lines.append(TextLine(text=text, bbox=bbox, confidence=max(0.0, confidence)))
    return lines


def _hangul(char: str) -> bool:
    return "\uac00" <= char <= "\ud7a3"


_HANGUL_GAP = 0.33
"""A gap narrower than this share of the line's median word height between two Hangul "words"
(or Hangul and a number, as in 제4조 or 25일) is no space: Tesseract's kor model cuts Korean
into syllables and numbers; only wider gaps break words."""


def _joins(left: str, right: str) -> bool:
    """Characters that a narrow gap leaves unspaced: Hangul to Hangul, Hangul to a digit."""
    return (
        (_hangul(left) or left.isdigit())
        and (_hangul(right) or right.isdigit())
        and (_hangul(left) or _hangul(right))
    )


def _join_words(items: list[tuple[str, float, tuple[int, int, int, int]]]) -> str:
    """A line's words with spaces only where the print has them."""
    height = max(1.0, statistics.median(w[2][3] - w[2][1] for w in items))
    out = items[0][0]
    for (prev, _, box_a), (word, _, box_b) in itertools.pairwise(items):
        narrow = box_b[0] - box_a[2] < _HANGUL_GAP * height
        out += word if narrow and _joins(prev[-1], word[0]) else " " + word
    return out


_STRIP_GAP = 24
MAX_STRIP_HEIGHT = 30_000
"""Below Tesseract's limit of 32767 pixels a side."""


SHADOW_INSIDE = 0.8
"""A part of a crop's reading with this share of its box inside a surer part's box is a shadow
of that part (see :func:`without_shadows`)."""


def _inside_share(inner: TextLine, outer: TextLine) -> float:
    a, b = inner.bbox, outer.bbox
    width = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    height = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    area = (a[2] - a[0]) * (a[3] - a[1])
    return width * height / area if area > 0 else 1.0


def without_shadows(parts: list[TextLine]) -> list[TextLine]:
    """One crop's reading: a crop holds one text line, so the parts Tesseract reads in it sit
    side by side. On large type (a slide's title, over 100 pixels high) its line finder also
    takes the upper half of the glyphs for a line of its own and reads it as junk (도입 일정 및
    역할 분담 gains "ㅇ 01 0! ㅁ 한 브"). Such a part lies inside another part's box; the surer of
    the two is kept."""
    kept = sorted(parts, key=lambda ln: ln.confidence, reverse=True)
    out: list[TextLine] = []
    for part in kept:
        if not any(_inside_share(part, surer) >= SHADOW_INSIDE for surer in out):
            out.append(part)
    return out


def read_line_strip(
    crops: list[Image.Image], lang: str, binary: str | None = None, timeout_s: float = 60
) -> list[LineRead]:
    """Text lines cut from a page, read in one Tesseract call: stacked one under the other on white,
    read as a uniform block, each reading taken back by its row (with how far into its crop the
    first word starts); empty text and no lead where nothing was read. Tesseract refuses images over
    32767 pixels a side, so a taller stack is read in several calls."""
    if not crops:
        return []
    height = _STRIP_GAP
    for count, crop in enumerate(crops):
        height += crop.height + _STRIP_GAP
        if height > MAX_STRIP_HEIGHT and count > 0:
            head = read_line_strip(crops[:count], lang, binary, timeout_s)
            return head + read_line_strip(crops[count:], lang, binary, timeout_s)
    width = max(c.width for c in crops) + 2 * _STRIP_GAP
    height = sum(c.height + _STRIP_GAP for c in crops) + _STRIP_GAP
    strip = Image.new("RGB", (width, height), "white")
    rows: list[tuple[int, int]] = []
    top = _STRIP_GAP
    for crop in crops:
        strip.paste(crop.convert("RGB"), (_STRIP_GAP, top))
        rows.append((top, top + crop.height))
        top += crop.height + _STRIP_GAP
    found = tesseract_lines(strip, lang, psm=6, binary=binary, timeout_s=timeout_s)
    out: list[list[TextLine]] = [[] for _ in crops]
    for line in found:
        middle = (line.bbox[1] + line.bbox[3]) / 2
        for index, (start, end) in enumerate(rows):
            if start - _STRIP_GAP / 2 <= middle <= end + _STRIP_GAP / 2:
                out[index].append(line)
                break
    out = [without_shadows(parts) for parts in out]
    return [
        LineRead(
            " ".join(ln.text for ln in sorted(parts, key=lambda ln: ln.bbox[0])),
            sum(ln.confidence for ln in parts) / len(parts),
            max(0.0, min(ln.bbox[0] for ln in parts) - _STRIP_GAP),
        )
        if parts
        else LineRead("", 0.0, None)
        for parts in out
    ]


class TesseractLineReader:
    """Tesseract as the decision layer's reader of one script's line crops (Hangul: the
    embedded PP-OCR has none), each call one strip (see :func:`read_line_strip`)."""

    name = "tesseract"
    install = TESSERACT_INSTALL

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def available(self) -> bool:
        return tesseract_available()

    def read(self, crops: Sequence[np.ndarray]) -> list[LineRead]:
        return read_line_strip([Image.fromarray(crop) for crop in crops], self.lang)


class TesseractEngine(EmbeddedEngine):
    """Block recognition with Tesseract; the language follows the page's script."""

    name = "tesseract"

    def __init__(self, options: TesseractEngineOptions | None = None) -> None:
        self.options = options or TesseractEngineOptions()

    async def recognize(self, request: BlockRequest) -> Recognition:
        start = time.perf_counter()
        block = request.block
        page_read = block.source == "ocr" and request.script == "hangul"
        if page_read and block.kind in TEXT_KINDS and block.lines:
            if not any(ln.text for ln in block.lines):
                # the page reading read each line (in its strip; the page's first few of them
                # alone too) and got nothing sure: the block's pixels read again give junk
                # (mirrored bleed-through read as Hangul) or nothing
                return Recognition(
                    text="",
                    engine=self.name,
                    confidence=0.0,
                    detail="every line of the block read as nothing during layout",
                )
            read = [ln for ln in block.lines if ln.text]
            return Recognition(
                text="\n".join(ln.text for ln in read),
                engine=self.name,
                confidence=round(sum(ln.confidence for ln in read) / len(read), 4),
                detail="lines read during layout (whole page, once)",
            )
        lang = LANGS_BY_SCRIPT.get(request.script, "eng")
        try:
            text = await asyncio.to_thread(
                tesseract_text,
                request.image,
                lang,
                self.options.psm,
                self.options.binary,
                self.options.timeout_s,
            )
        except subprocess.TimeoutExpired as exc:
            raise EngineError("tesseract timed out", file=request.file, page=request.page) from exc
        except DependencyError as exc:
            raise DependencyError(
                exc.message, file=request.file, page=request.page, hint=exc.hint
            ) from exc
        return Recognition(
            text=text,
            engine=self.name,
            latency_s=time.perf_counter() - start,
            detail=f"lang={lang} psm={self.options.psm}",
        )

    async def aclose(self) -> None:
        return None
