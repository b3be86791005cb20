"""document.json: the DocumentResult with a schema version; its JSON Schema comes from the
pydantic models, so the file and the schema cannot drift apart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pydantic

from pagereader.errors import InputError
from pagereader.types import DocumentResult

SCHEMA_VERSION = "2.3"
"""2.0: a block's verdict says how it ended as `outcome` (1.0 called it `action`); the document
has a `structure` (headings and articles). 2.1: a heading block has a `level` (1..6) and every
block a `heading_path`; a page its `overlay_scale` (pixels of its overlay per page unit). 2.2:
a line's `char_boxes` are empty unless the option `output.char_boxes` asks for them. 2.3: a
block's `mapped_chars`, the OCR's characters written in the page's standard forms."""


def document_json(result: DocumentResult) -> dict[str, Any]:
    """The JSON-ready content of document.json."""
    return result.model_dump(mode="json", exclude={"markdown"})


def document_json_text(result: DocumentResult) -> str:
    return json.dumps(document_json(result), ensure_ascii=False, indent=2)


def json_schema() -> dict[str, Any]:
    """JSON Schema of document.json."""
    schema = DocumentResult.model_json_schema()
    schema["$id"] = f"https://pagereader.dev/schema/document-{SCHEMA_VERSION}.json"
    return schema


_REREAD = "give the source document, or a document.json written by pagereader parse"


def _major_of(version: str) -> int | None:
    head = version.split(".", 1)[0]
    return int(head) if head.isascii() and head.isdigit() else None


_MAJOR = int(SCHEMA_VERSION.split(".", 1)[0])


def read_document_json(data: bytes, file: Path) -> DocumentResult:
    """A document.json's content (``file`` names it in errors). A schema of this major version
    or an older one is read (a newer minor version only adds fields); a newer major version is
    refused before its fields are read, naming both versions."""
    try:
        raw = json.loads(data)
    except ValueError as exc:
        raise InputError(f"not a JSON file ({exc})", file=file, hint=_REREAD) from None
    version = raw.get("schema_version") if isinstance(raw, dict) else None
    major = _major_of(version) if isinstance(version, str) else None
    if major is not None and major > _MAJOR:
        raise InputError(
            f"schema_version {version} is newer than this pagereader reads "
            f"({SCHEMA_VERSION} and older)",
            file=file,
            hint="upgrade pagereader, or parse the source document again with this one",
        )
    try:
        return DocumentResult.model_validate(raw)
    except pydantic.ValidationError as exc:
        raise InputError(
            f"not a pagereader document.json (schema {SCHEMA_VERSION}): "
            f"{exc.error_count()} problem(s), first: {exc.errors()[0]['msg']}",
            file=file,
            hint=_REREAD,
        ) from None
