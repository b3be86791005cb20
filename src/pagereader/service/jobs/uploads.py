"""Uploads read straight from the request stream into the job's folder, counted as they come.

Starlette's form parser spools the whole body to a temporary file before the handler runs, so a
size check there comes after the disk is already full. Here the Content-Length is checked first,
then a counting multipart reader writes the file part to its final place and stops at the limit:
the server never holds more than the limit plus one chunk of any upload.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import unicodedata
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from PIL import Image, UnidentifiedImageError
from python_multipart import MultipartParser
from python_multipart.multipart import parse_options_header

from pagereader.http.errors import ServiceError
from pagereader.sources.formats import IMAGE_SUFFIXES, SUPPORTED_SUFFIXES, supported_types

logger = logging.getLogger(__name__)

MAX_NAME_BYTES = 200
MULTIPART_OVERHEAD = 64 * 1024
_CALLBACKS = [
    "part_begin",
    "header_field",
    "header_value",
    "header_end",
    "headers_finished",
    "part_data",
    "part_end",
]


def safe_name(filename: str | None) -> str:
    """The upload's base name: no client folders, no control characters, at most
    ``MAX_NAME_BYTES`` bytes of UTF-8 (the stem is cut, the suffix kept), so any file system
    takes it."""
    base = (filename or "").replace("\\", "/").rsplit("/", 1)[-1]
    base = "".join(c for c in base if unicodedata.category(c)[0] != "C").strip()
    if len(base.encode()) <= MAX_NAME_BYTES:
        return base
    stem, dot, suffix = base.rpartition(".")
    suffix = f".{suffix}"[:16] if dot else ""
    room = MAX_NAME_BYTES - len(suffix.encode())
    cut = (stem if dot else base).encode()[:room].decode(errors="ignore")
    return f"{cut}{suffix}"


def check_name(name: str) -> None:
    """Refuse names the pipeline cannot take (no name, a hidden file, an unknown type)."""
    if not name or name.startswith("."):
        raise ServiceError(400, "the upload has no file name")
    suffix = Path(name).suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise ServiceError(
            400,
            f"{name}: unsupported file type {suffix or '(none)'}; supported: {supported_types()}",
        )


def check_image_pixels(path: Path, name: str, max_pixels: int) -> None:
    """Refuse an image whose header declares more pixels than the budget, before any decoding
    (Image.open reads the header only)."""
    if path.suffix.lower() not in IMAGE_SUFFIXES:
        return
    try:
        with Image.open(path) as image:
            width, height = image.size
    except Image.DecompressionBombError:
        width, height = max_pixels + 1, 1
    except (UnidentifiedImageError, OSError):
        return  # the pipeline reports unreadable files with its own clear line
    if width * height > max_pixels:
        raise ServiceError(
            413,
            f"{name}: {width}x{height} = {width * height} pixels, over the pixel budget of "
            f"{max_pixels} (render.max_image_pixels); downscale the image",
        )


@dataclass
class StoredUpload:
    """An upload written to its folder."""

    name: str
    path: Path
    sha256: str
    size: int
    fields: dict[str, str] = field(default_factory=dict)


@dataclass
class _Reader:
    """State of one multipart body; the parser's callbacks fill it."""

    make_folder: Callable[[], Path]
    max_bytes: int
    max_field_bytes: int
    error: ServiceError | None = None
    headers: dict[bytes, bytes] = field(default_factory=dict)
    header_field: bytes = b""
    header_value: bytes = b""
    part: str | None = None
    file: IO[bytes] | None = None
    stored: StoredUpload | None = None
    digest: hashlib._Hash = field(default_factory=hashlib.sha256)
    value: bytearray = field(default_factory=bytearray)
    fields: dict[str, str] = field(default_factory=dict)

    def fail(self, status: int, message: str) -> None:
        if self.error is None:
            self.error = ServiceError(status, message)

    def on_part_begin(self) -> None:
        self.headers, self.part = {}, None

    def on_header_field(self, data: bytes, start: int, end: int) -> None:
        self.header_field += data[start:end]

    def on_header_value(self, data: bytes, start: int, end: int) -> None:
        self.header_value += data[start:end]

    def on_header_end(self) -> None:
        self.headers[self.header_field.lower()] = self.header_value
        self.header_field = self.header_value = b""

    def on_headers_finished(self) -> None:
        _, params = parse_options_header(self.headers.get(b"content-disposition", b""))
        self.part = params.get(b"name", b"").decode(errors="replace")
        if self.part != "file":
            self.value = bytearray()
            return
        if self.stored is not None:
            self.fail(400, "send exactly one file")
            return
        raw = params.get(b"filename")
        if raw is None:
            self.fail(400, "the multipart field 'file' must be a file")
            return
        name = safe_name(raw.decode(errors="replace"))
        try:
            check_name(name)
        except ServiceError as exc:
            self.error = self.error or exc
            return
        folder = self.make_folder()
        path = folder / name
        self.stored = StoredUpload(name=name, path=path, sha256="", size=0)
        self.file = path.open("wb")

    def on_part_data(self, data: bytes, start: int, end: int) -> None:
        if self.error is not None:
            return
        chunk = data[start:end]
        if self.part == "file" and self.file is not None and self.stored is not None:
            self.stored.size += len(chunk)
            if self.stored.size > self.max_bytes:
                self.fail(
                    413, f"{self.stored.name}: larger than the limit of {self.max_bytes} bytes"
                )
                return
            self.digest.update(chunk)
            self.file.write(chunk)
        elif self.part != "file":
            self.value += chunk
            if len(self.value) > self.max_field_bytes:
                self.fail(
                    400, f"form field {self.part!r} is longer than {self.max_field_bytes} bytes"
                )

    def on_part_end(self) -> None:
        if self.part == "file" and self.file is not None:
            self.file.close()
            self.file = None
        elif self.part and self.error is None:
            self.fields[self.part] = self.value.decode(errors="replace")

    def callbacks(self) -> dict[str, Callable[..., None]]:
        return {f"on_{n}": getattr(self, f"on_{n}") for n in _CALLBACKS}

    def discard(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None
        if self.stored is not None:
            shutil.rmtree(self.stored.path.parent, ignore_errors=True)


async def receive_upload(
    headers: dict[str, str],
    body: AsyncIterator[bytes],
    make_folder: Callable[[], Path],
    max_bytes: int,
    max_field_bytes: int,
) -> StoredUpload:
    """Read one multipart upload into ``make_folder()/<name>``; raise ServiceError (and leave
    no folder behind) when the body is not one supported file within the limit."""
    kind, params = parse_options_header(headers.get("content-type", ""))
    boundary = params.get(b"boundary")
    if kind != b"multipart/form-data" or not boundary:
        raise ServiceError(400, "send one file as the multipart field 'file'")
    ceiling = max_bytes + MULTIPART_OVERHEAD
    declared = headers.get("content-length", "")
    if declared.isdigit() and int(declared) > ceiling:
        raise ServiceError(413, f"the upload is larger than the limit of {max_bytes} bytes")
    reader = _Reader(make_folder, max_bytes, max_field_bytes)
    parser = MultipartParser(boundary, reader.callbacks())  # type: ignore[arg-type]
    received = 0
    try:
        async for chunk in body:
            received += len(chunk)
            if received > ceiling:
                reader.fail(413, f"the upload is larger than the limit of {max_bytes} bytes")
            if reader.error is None:
                parser.write(chunk)
            if reader.error is not None:
                raise reader.error
        parser.finalize()
        if reader.error is not None:
            raise reader.error
    except ServiceError:
        reader.discard()
        raise
    except (OSError, ValueError) as exc:
        reader.discard()
        logger.warning("upload refused: %s", exc)
        raise ServiceError(400, f"the upload could not be stored: {exc}") from exc
    except BaseException:
        reader.discard()
        raise
    stored = reader.stored
    if stored is None:
        raise ServiceError(400, "send one file as the multipart field 'file'")
    if stored.size == 0:
        reader.discard()
        raise ServiceError(400, f"{stored.name}: the file is empty")
    stored.sha256 = reader.digest.hexdigest()
    stored.fields = reader.fields
    return stored
