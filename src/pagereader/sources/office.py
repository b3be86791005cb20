"""PPTX and DOCX: converted to PDF by LibreOffice headless; slide notes read with python-pptx.

LibreOffice is given a copy without outside references (sources/office_links.py), runs
isolated (sources/office_sandbox.py), and each conversion gets its own user profile so that
parallel runs do not collide.
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
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import IO

from pagereader.config.settings import soffice_binary
from pagereader.errors import CorruptFileError, DependencyError
from pagereader.sources.formats import SLIDE_SUFFIXES
from pagereader.sources.limits import InflateLimits, InflateMeter, inflate
from pagereader.sources.office_sandbox import isolated, prepare_profile

logger = logging.getLogger(__name__)

_CONVERT_TIMEOUT_S = 180
# binary formats hold no XML to clean: LibreOffice, isolated, converts them to theirs first
_BINARY_FORMATS = {".ppt": "pptx", ".doc": "docx"}
# hidden slides too, so that page N is slide N (the native reader marks them hidden)
SLIDES_TO_PDF = 'pdf:impress_pdf_Export:{"ExportHiddenSlides":{"type":"boolean","value":"true"}}'
LIBREOFFICE_INSTALL = "apt-get install -y libreoffice-impress libreoffice-writer bubblewrap"
LIBREOFFICE_HINT = (
    f"install LibreOffice (Debian/Ubuntu: {LIBREOFFICE_INSTALL}) or export the file to PDF and "
    "parse that"
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


@dataclass(frozen=True)
class OfficePdf:
    """An office file's pages as a PDF, and what was taken out of the file first."""

    pdf: Path
    warnings: tuple[str, ...]


def convert_to_pdf(path: Path, workdir: Path) -> OfficePdf:
    """Convert an office file to PDF in ``workdir``; raise a clear error if it cannot be done.

    LibreOffice never sees ``path``: it reads a copy without outside references (a binary
    .ppt or .doc is first converted to its XML format, isolated, then cleaned), runs isolated
    (sources/office_sandbox.py), and sees only ``workdir``'s inbox and its own profile."""
    from pagereader.sources.office_links import sanitize_package  # lxml: office files only

    inbox = workdir / "inbox"
    inbox.mkdir(parents=True, exist_ok=True)
    suffix = path.suffix.lower()
    if suffix in _BINARY_FORMATS:
        shutil.copyfile(path, inbox / f"original{suffix}")
        package = run_libreoffice(inbox / f"original{suffix}", _BINARY_FORMATS[suffix], name=path)
    else:
        package = path
    clean = inbox / f"document{package.suffix.lower()}"
    try:
        warnings = sanitize_package(package, clean)
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise CorruptFileError(f"not a readable office package ({exc})", file=path) from exc
    filter_ = SLIDES_TO_PDF if suffix in SLIDE_SUFFIXES else "pdf"
    return OfficePdf(run_libreoffice(clean, filter_, name=path), warnings)


def run_libreoffice(source: Path, convert_to: str, name: Path) -> Path:
    """Convert ``source`` (a file inside a folder of its own) with LibreOffice, isolated, into
    the same folder; return the result. ``name``: the file the user gave, for errors."""
    soffice = find_soffice()
    if soffice is None:
        raise DependencyError(
            "LibreOffice is needed to read this file and was not found",
            file=name,
            hint=LIBREOFFICE_HINT,
        )
    folder = source.parent
    profile = Path(tempfile.mkdtemp(prefix="pagereader-lo-"))
    prepare_profile(profile)
    command, env, _ = isolated(
        [
            soffice,
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--norestore",
            "--nolockcheck",
            "--convert-to",
            convert_to,
            "--outdir",
            str(folder),
            str(source),
        ],
        writable=[folder, profile],
    )
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=_CONVERT_TIMEOUT_S,
            check=False,
            env=env,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as exc:
        raise CorruptFileError(
            f"LibreOffice did not finish converting within {_CONVERT_TIMEOUT_S} s", file=name
        ) from exc
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    result = folder / f"{source.stem}.{convert_to.split(':', 1)[0]}"
    if done.returncode != 0 or not result.exists():
        detail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise CorruptFileError(f"LibreOffice could not convert the file: {detail[0]}", file=name)
    return result


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
