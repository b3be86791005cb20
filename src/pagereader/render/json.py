"""document.json: the DocumentResult with a schema version; its JSON Schema comes from the
pydantic models, so the file and the schema cannot drift apart."""

from __future__ import annotations

import json
from collections.abc import Mapping
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
block's `mapped_chars`, the OCR's characters written in the page's standard forms; a page's
`page_answers` (the whole-page requests of a page route, raw answers kept)."""


def document_json(
    result: DocumentResult, decisions: Mapping[tuple[int, int], Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """The JSON-ready content of document.json. ``decisions``: fields recorded beside a block,
    by (page, block order) (what a reviewer decided, and the verdict before it)."""
    data = result.model_dump(mode="json", exclude={"markdown"})
    if decisions:
        for page_data, page in zip(data["pages"], result.pages, strict=True):
            for block_data, block in zip(page_data["blocks"], page.blocks, strict=True):
                block_data.update(decisions.get((page.index, block.block.order), {}))
    return data


def document_json_text(
    result: DocumentResult, decisions: Mapping[tuple[int, int], Mapping[str, Any]] | None = None
) -> str:
    return json.dumps(document_json(result, decisions), ensure_ascii=False, indent=2)


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


DECISION_FIELDS = frozenset(
    {"approved_by", "approved_at", "corrected_by", "corrected_at", "correction", "original"}
)
"""What a reviewer's decision records beside a block in document.json (the service's
corrections): read past, the block is the corrected one."""


def _without_decisions(raw: Any) -> Any:
    """``raw`` with the blocks' decision fields left out (a corrected job's document.json)."""
    if not isinstance(raw, dict) or not isinstance(raw.get("pages"), list):
        return raw
    pages = []
    for page in raw["pages"]:
        if isinstance(page, dict) and isinstance(page.get("blocks"), list):
            blocks = [
                {k: v for k, v in b.items() if k not in DECISION_FIELDS}
                if isinstance(b, dict)
                else b
                for b in page["blocks"]
            ]
            page = {**page, "blocks": blocks}
        pages.append(page)
    return {**raw, "pages": pages}


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
        return DocumentResult.model_validate(_without_decisions(raw))
    except pydantic.ValidationError as exc:
        raise InputError(
            f"not a pagereader document.json (schema {SCHEMA_VERSION}): "
            f"{exc.error_count()} problem(s), first: {exc.errors()[0]['msg']}",
            file=file,
            hint=_REREAD,
        ) from None
