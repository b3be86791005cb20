"""What the LangChain and LlamaIndex loaders share: files parsed one by one into their chunks,
each chunk's metadata (source, pages, boxes, heading path, article id, chunk id), and a
failure that is never silent: the other files are still loaded, then the failed ones are
raised together."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from pagereader.errors import PagereaderError
from pagereader.options import Options
from pagereader.pipeline import parse
from pagereader.structure.chunks import chunks
from pagereader.types import Chunk, DocumentResult

logger = logging.getLogger(__name__)

PathLike = str | Path


class LoadError(PagereaderError):
    """One or more documents could not be read at all; the others were loaded."""

    stage = "load"


def as_paths(file_path: PathLike | Sequence[PathLike]) -> list[Path]:
    """One path or several, as paths."""
    if isinstance(file_path, str | Path):
        return [Path(file_path)]
    return [Path(item) for item in file_path]


def chunk_metadata(result: DocumentResult, chunk: Chunk) -> dict[str, Any]:
    """A chunk's provenance as plain JSON values: where to cite and highlight it."""
    return {
        "source": result.source,
        "status": result.status,
        "chunk_id": chunk.id,
        "pages": list(chunk.pages),
        "boxes": [box.model_dump(mode="json") for box in chunk.boxes],
        "heading_path": list(chunk.heading_path),
        "article_id": chunk.article_id,
    }


def parsed_chunks(
    paths: Sequence[Path], options: Options | None = None
) -> Iterator[tuple[DocumentResult, Chunk]]:
    """Each file's chunks in reading order, file after file. A partial document is loaded
    with a warning naming what was lost; a failed one is skipped and, after the rest, raised
    in a LoadError with every failed file's error line."""
    output = (options or Options()).output
    failed: list[str] = []
    for path in paths:
        result = parse(path, options)
        lines = [error.line() for error in result.errors]
        if result.status == "failed":
            failed.append(lines[0] if lines else f"{path}: not read")
            continue
        if result.status == "partial":
            logger.warning("%s: partly read: %s", result.source, "; ".join(lines))
        for chunk in chunks(result, output.chunk_tokens, output.chunk_tokenizer):
            yield result, chunk
    if failed:
        raise LoadError(
            f"{len(failed)} of {len(paths)} document(s) could not be read: " + "; ".join(failed),
            hint="the other documents were loaded",
        )
