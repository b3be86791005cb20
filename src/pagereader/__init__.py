"""pagereader: slide decks, PDFs and scans into faithful Markdown and JSON.

>>> import pagereader
>>> result = pagereader.parse("deck.pdf")
>>> result.status, result.markdown[:40]

The names below are imported when first used (PEP 562): ``import pagereader`` and
``pagereader --help`` load no pipeline, model runtime or PDF library.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pagereader.config.file import load_config
    from pagereader.config.options import Options
    from pagereader.errors import PagereaderError
    from pagereader.pipeline import aparse, aparse_to_folder, make_context, parse
    from pagereader.structure.chunks import chunks, read_chunks_jsonl
    from pagereader.types import (
        Block,
        BlockResult,
        Chunk,
        ChunkBox,
        DocumentResult,
        ErrorItem,
        PageDecision,
        PageResult,
        Verdict,
    )

_HOMES = {
    "load_config": "pagereader.config.file",
    "PagereaderError": "pagereader.errors",
    "Options": "pagereader.config.options",
    "aparse": "pagereader.pipeline",
    "aparse_to_folder": "pagereader.pipeline",
    "make_context": "pagereader.pipeline",
    "parse": "pagereader.pipeline",
    "chunks": "pagereader.structure.chunks",
    "read_chunks_jsonl": "pagereader.structure.chunks",
    "Block": "pagereader.types",
    "BlockResult": "pagereader.types",
    "Chunk": "pagereader.types",
    "ChunkBox": "pagereader.types",
    "DocumentResult": "pagereader.types",
    "ErrorItem": "pagereader.types",
    "PageDecision": "pagereader.types",
    "PageResult": "pagereader.types",
    "Verdict": "pagereader.types",
}

__all__ = [
    "Block",
    "BlockResult",
    "Chunk",
    "ChunkBox",
    "DocumentResult",
    "ErrorItem",
    "Options",
    "PageDecision",
    "PageResult",
    "PagereaderError",
    "Verdict",
    "aparse",
    "aparse_to_folder",
    "chunks",
    "load_config",
    "make_context",
    "parse",
    "read_chunks_jsonl",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'pagereader' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])
