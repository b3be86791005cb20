"""What a file is by its first bytes, whatever its name says: a PNG saved as ``.pdf`` is read as
the PNG it is, and the document says so."""

from __future__ import annotations

import zipfile
from pathlib import Path

_HEAD = 1024
_IMAGES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", ".png"),
    (b"\xff\xd8\xff", ".jpg"),
    (b"II*\x00", ".tif"),
    (b"MM\x00*", ".tif"),
    (b"BM", ".bmp"),
)
_ODF = {
    "application/vnd.oasis.opendocument.presentation": ".odp",
    "application/vnd.oasis.opendocument.text": ".odt",
}
NAMES = {
    ".pdf": "a PDF",
    ".png": "a PNG image",
    ".jpg": "a JPEG image",
    ".tif": "a TIFF image",
    ".webp": "a WebP image",
    ".bmp": "a BMP image",
    ".pptx": "a PPTX deck",
    ".docx": "a DOCX document",
    ".odp": "an ODP presentation",
    ".odt": "an ODT document",
}
_SAME = {".jpeg": ".jpg", ".tiff": ".tif"}


def sniff(path: Path) -> str | None:
    """The suffix that names ``path``'s content (``.pdf``, ``.png``, ``.pptx``, ...), or None
    when its first bytes say nothing this reader knows (a binary .ppt or .doc, a damaged
    file): then its name decides."""
    with path.open("rb") as handle:
        head = handle.read(_HEAD)
    for magic, suffix in _IMAGES:
        if head.startswith(magic):
            return suffix
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return ".webp"
    if head.startswith(b"PK\x03\x04"):
        return _package(path)
    if b"%PDF-" in head:  # a PDF may start after some junk bytes; readers accept that
        return ".pdf"
    return None


def _package(path: Path) -> str | None:
    """A zip package's kind from the parts it holds (OOXML) or its ``mimetype`` (ODF)."""
    try:
        with zipfile.ZipFile(path) as package:
            names = set(package.namelist())
            if "ppt/presentation.xml" in names:
                return ".pptx"
            if "word/document.xml" in names:
                return ".docx"
            if "mimetype" in names:
                info = package.getinfo("mimetype")
                if info.file_size <= 100:
                    return _ODF.get(package.read(info).decode("ascii", "replace").strip())
    except (zipfile.BadZipFile, OSError):
        return None
    return None


def mislabelled(suffix: str, found: str | None) -> bool:
    """Whether content of kind ``found`` is not what a file named ``suffix`` holds."""
    return found is not None and _SAME.get(suffix, suffix) != found


def mislabel_warning(path: Path, found: str) -> str:
    """The document's warning for a file read by its content, not its name."""
    named = NAMES.get(_SAME.get(path.suffix.lower(), path.suffix.lower()), path.suffix)
    return (
        f"{path.name} is {NAMES[found]}, not {named} as its name says: read as {NAMES[found]}; "
        f"rename it to {path.stem}{found}"
    )
