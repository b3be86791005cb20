"""PPTX and DOCX: converted to PDF by LibreOffice headless; slide notes read with python-pptx.

Each conversion gets its own LibreOffice user profile so that parallel runs do not collide.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import tempfile
from pathlib import Path

from pagereader.errors import CorruptFileError, DependencyError
from pagereader.settings import soffice_binary

logger = logging.getLogger(__name__)

OFFICE_SUFFIXES = frozenset({".pptx", ".docx", ".ppt", ".doc", ".odp", ".odt"})
_CONVERT_TIMEOUT_S = 180
LIBREOFFICE_HINT = (
    "install LibreOffice (Debian/Ubuntu: apt-get install -y libreoffice-impress "
    "libreoffice-writer) or export the deck to PDF and parse that"
)


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
        "pdf",
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
