"""PPTX and DOCX: converted to PDF by LibreOffice headless; slide notes read with python-pptx.

Each conversion gets its own LibreOffice user profile so that parallel runs do not collide.
Before either reads a zip package (PPTX, DOCX, ODP, ODT), every member is inflated here in
pieces and counted against the limits of sources/limits.py.
"""

from __future__ import annotations

import logging
import shutil
import struct
import subprocess
import tempfile
import zipfile
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import IO

from pagereader.errors import CorruptFileError, DependencyError
from pagereader.settings import soffice_binary
from pagereader.sources.limits import InflateLimits, InflateMeter, inflate

logger = logging.getLogger(__name__)

OFFICE_SUFFIXES = frozenset({".pptx", ".docx", ".ppt", ".doc", ".odp", ".odt"})
_CONVERT_TIMEOUT_S = 180
SLIDE_SUFFIXES = frozenset({".pptx", ".ppt", ".odp"})
# hidden slides too, so that page N is slide N (the native reader marks them hidden)
SLIDES_TO_PDF = 'pdf:impress_pdf_Export:{"ExportHiddenSlides":{"type":"boolean","value":"true"}}'
LIBREOFFICE_HINT = (
    "install LibreOffice (Debian/Ubuntu: apt-get install -y libreoffice-impress "
    "libreoffice-writer) or export the deck to PDF and parse that"
)


_READ = 1024 * 1024
_LOCAL_HEADER = struct.Struct("<4s22xHH")  # signature, then the name's and extra's lengths


def check_package(path: Path, limits: InflateLimits) -> None:
    """Inflate every member of a zip package in pieces and raise InflatesTooLargeError at the
    first past a limit. A deflated member is inflated from its own bytes to the end of its
    deflate stream, so a header that understates its size changes nothing. Files that are no
    zip (.ppt, .doc) are left to LibreOffice."""
    if not zipfile.is_zipfile(path):
        return
    meter = InflateMeter(limits, file=path, parts="parts")
    try:
        with zipfile.ZipFile(path) as package, path.open("rb") as handle:
            for info in package.infolist():
                what = f"part {info.filename}"
                if info.flag_bits & 0x1:
                    continue  # encrypted: no reader of office files can open it either
                if info.compress_type == zipfile.ZIP_STORED:
                    meter.add_size(info.compress_size, what)
                elif info.compress_type == zipfile.ZIP_DEFLATED:
                    meter.add(inflate(_member_data(handle, info), wbits=-15), what)
                else:
                    with package.open(info) as member:
                        meter.add(iter(partial(member.read, _READ), b""), what)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, OSError) as exc:
        raise CorruptFileError(f"not a readable zip package ({exc})", file=path) from exc


def _member_data(handle: IO[bytes], info: zipfile.ZipInfo) -> Iterator[bytes]:
    """A member's compressed bytes and whatever follows them, a mebibyte at a time."""
    handle.seek(info.header_offset)
    header = handle.read(_LOCAL_HEADER.size)
    if len(header) < _LOCAL_HEADER.size or header[:4] != b"PK\x03\x04":
        raise zipfile.BadZipFile(f"no local header for {info.filename}")
    _, name_length, extra_length = _LOCAL_HEADER.unpack(header)
    handle.seek(info.header_offset + _LOCAL_HEADER.size + name_length + extra_length)
    while chunk := handle.read(_READ):
        yield chunk


def find_soffice() -> str | None:
    """The LibreOffice executable, if one is installed."""
    explicit = soffice_binary()
    if explicit:
        return explicit if shutil.which(explicit) or Path(explicit).exists() else None
    return shutil.which("soffice") or shutil.which("libreoffice")


def convert_to_pdf(path: Path, workdir: Path) -> Path:
    """Convert an office file to PDF in ``workdir``; raise a clear error if it cannot be done."""
    soffice = find_soffice()
    if soffice is None:
        raise DependencyError(
            "LibreOffice is needed to read this file and was not found",
            file=path,
            hint=LIBREOFFICE_HINT,
        )
    profile = Path(tempfile.mkdtemp(prefix="pagereader-lo-"))
    command = [
        soffice,
        f"-env:UserInstallation={profile.as_uri()}",
        "--headless",
        "--norestore",
        "--convert-to",
        SLIDES_TO_PDF if path.suffix.lower() in SLIDE_SUFFIXES else "pdf",
        "--outdir",
        str(workdir),
        str(path),
    ]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=_CONVERT_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired as exc:
        raise CorruptFileError(
            f"LibreOffice did not finish converting within {_CONVERT_TIMEOUT_S} s", file=path
        ) from exc
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    pdf = workdir / f"{path.stem}.pdf"
    if done.returncode != 0 or not pdf.exists():
        detail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise CorruptFileError(f"LibreOffice could not convert the file: {detail[0]}", file=path)
    return pdf


def read_slide_notes(path: Path) -> dict[int, str]:
    """Speaker notes by 1-based slide number (empty for non-PPTX files or unreadable notes)."""
    if path.suffix.lower() != ".pptx":
        return {}
    try:
        from pptx import Presentation

        deck = Presentation(str(path))
    except Exception as exc:  # python-pptx raises many types for a damaged package
        logger.warning("%s: cannot read speaker notes (%s)", path, exc)
        return {}
    notes: dict[int, str] = {}
    for number, slide in enumerate(deck.slides, start=1):
        if slide.has_notes_slide:
            text = (
                slide.notes_slide.notes_text_frame.text.strip()
                if (slide.notes_slide.notes_text_frame is not None)
                else ""
            )
            if text:
                notes[number] = text
    return notes
