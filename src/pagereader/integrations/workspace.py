"""Documents an adapter parses and reads back: files from the allowed roots or uploads, parsed
with one Runtime (models load once per process) into ``OUT/<id>/`` (document.md,
document.json, review.md...), where ``id`` is the file's stem and a digest of its bytes, so
that the same file gets the same folder and two files never share one."""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pagereader import atomic
from pagereader.config.options import Options
from pagereader.document.writer import probe_folder
from pagereader.errors import InputError, UnsupportedFormatError
from pagereader.integrations.roots import Roots
from pagereader.pipeline import aparse_to_folder, make_context
from pagereader.render.files import DOCUMENT_JSON
from pagereader.render.names import output_names
from pagereader.reuse.cache import file_digest
from pagereader.sources.formats import SUPPORTED_SUFFIXES, supported_types
from pagereader.types import DocumentResult

MIB = 1024 * 1024
UPLOADS = ".uploads"
_ID_DIGEST_CHARS = 12


class Limits(BaseModel):
    """What one call may cost; the defaults are those of ``pagereader serve``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_file_bytes: int = Field(200 * MIB, ge=1, description="largest document file or upload")
    max_pages: int = Field(1000, ge=1, description="most pages one document may have")
    max_markdown_chars: int = Field(
        40_000, ge=100, description="Markdown returned by one call; the rest is cut with a note"
    )
    max_results: int = Field(20, ge=1, description="most chunks one list or search returns")


def _store(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_atomic(path, data)


class UnknownDocumentError(InputError):
    """A document id that names no parsed document in the output folder."""

    default_hint = "parse the document first and use the id that parse returned"


class Workspace:
    """Allowed roots, an output folder and one Runtime; parses run one at a time."""

    def __init__(self, roots: Roots, out: Path, options: Options, limits: Limits) -> None:
        self.roots = roots
        self.out = out.resolve()
        probe_folder(self.out)
        self.limits = limits
        pages = options.limits.model_copy(update={"max_pages": limits.max_pages})
        self.options = options.model_copy(update={"limits": pages})
        self._ctx = make_context(self.options)
        self._one_at_a_time = asyncio.Lock()

    def _checked_size(self, size: int, name: str) -> None:
        if size > self.limits.max_file_bytes:
            raise InputError(
                f"{size / MIB:.1f} MiB, over the limit of "
                f"{self.limits.max_file_bytes / MIB:.1f} MiB per document",
                file=name,
            )

    async def parse_path(self, given: str) -> tuple[str, DocumentResult]:
        """Parse a file inside the roots; (its id, the document as document.json holds it)."""
        path = self.roots.confine(given)
        self._checked_size(path.stat().st_size, given)
        digest = await asyncio.to_thread(file_digest, path)
        return await self._parse(path, digest, given)

    async def parse_upload(self, filename: str, content_base64: str) -> tuple[str, DocumentResult]:
        """Parse uploaded bytes; the upload is kept under ``OUT/.uploads/``."""
        name = Path(filename).name
        if not name or name != filename or Path(name).suffix.lower() not in SUPPORTED_SUFFIXES:
            raise UnsupportedFormatError(
                "an upload needs a plain file name ending in a supported type",
                file=filename,
                hint=f"one of {supported_types()}",
            )
        self._checked_size(len(content_base64) * 3 // 4, filename)
        try:
            data = base64.b64decode(content_base64, validate=True)
        except (binascii.Error, ValueError):
            raise InputError("the upload is not valid base64", file=filename) from None
        self._checked_size(len(data), filename)
        digest = hashlib.sha256(data).hexdigest()
        path = self.out / UPLOADS / digest[:_ID_DIGEST_CHARS] / name
        await asyncio.to_thread(_store, path, data)
        return await self._parse(path, digest, filename)

    async def _parse(self, path: Path, digest: str, name: str) -> tuple[str, DocumentResult]:
        stem = output_names([path])[path]
        document_id = f"{stem}-{digest[:_ID_DIGEST_CHARS]}"
        async with self._one_at_a_time:
            result = await aparse_to_folder(path, self.out / document_id, self._ctx, name=name)
        return document_id, result

    def folder(self, document_id: str) -> Path:
        """The output folder of a parsed document; UnknownDocumentError otherwise."""
        folder = self.out / document_id
        if (
            not document_id
            or Path(document_id).name != document_id
            or document_id.startswith(".")
            or not (folder / DOCUMENT_JSON.name).is_file()
        ):
            raise UnknownDocumentError("no parsed document has this id", file=document_id)
        return folder

    def load(self, document_id: str) -> DocumentResult:
        """A parsed document as its document.json records it."""
        path = self.folder(document_id) / DOCUMENT_JSON.name
        try:
            return DocumentResult.model_validate(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, ValidationError) as exc:
            raise InputError(f"cannot read document.json: {exc}", file=document_id) from None
