"""Earlier outputs of ``parse`` given to another command (``diff``, ``export-docling``): a
document.json, or the output folder holding one, read the same way by every command."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pagereader.render.files import DOCUMENT_JSON

if TYPE_CHECKING:
    from pagereader.types import DocumentResult

OUTPUT_JSON = DOCUMENT_JSON.name


def saved_output(path: Path) -> Path | None:
    """The document.json that ``path`` names (itself, or inside a parse output folder)."""
    if path.is_dir() and (path / OUTPUT_JSON).is_file():
        return path / OUTPUT_JSON
    if path.is_file() and path.suffix.lower() == ".json":
        return path
    return None


def load_output(path: Path) -> DocumentResult:
    """A document.json written by ``parse`` (see render/json.py for the versions it reads),
    its article tree rebuilt when it has none recorded (an output older than the tree)."""
    from pagereader.render.json import read_document_json
    from pagereader.structure.tree import build_structure

    result = read_document_json(path.read_bytes(), path)
    if not result.structure and result.pages:
        result = result.model_copy(update={"structure": build_structure(result.pages)})
    return result
