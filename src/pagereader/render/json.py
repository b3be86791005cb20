"""document.json: the DocumentResult with a schema version; its JSON Schema comes from the
pydantic models, so the file and the schema cannot drift apart."""

from __future__ import annotations

import json
from typing import Any

from pagereader.types import DocumentResult

SCHEMA_VERSION = "2.2"
"""2.0: a block's verdict says how it ended as `outcome` (1.0 called it `action`); the document
has a `structure` (headings and articles). 2.1: a heading block has a `level` (1..6) and every
block a `heading_path`; a page its `overlay_scale` (pixels of its overlay per page unit). 2.2:
a line's `char_boxes` are empty unless the option `output.char_boxes` asks for them."""


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
