"""What the LangChain and LlamaIndex loaders share: files parsed one by one into their chunks,
each chunk's metadata (source, pages, boxes, heading path, article id, chunk id), and a
failure that is never silent.

A file that cannot be read is handled as the frameworks handle one (LlamaIndex's
``SimpleDirectoryReader(raise_on_error=False)``, LangChain's ``DirectoryLoader(silent_errors=
True)``): by default (``on_error="skip"``) it is skipped with a :class:`LoadWarning` naming it
and listed in the loader's ``failures``, and the other files are loaded; ``on_error="raise"``
raises a :class:`LoadError` naming it instead.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Literal, get_args

from pagereader.config.options import Options
from pagereader.errors import PagereaderError
from pagereader.pipeline import parse
from pagereader.structure.chunks import chunks
from pagereader.types import Chunk, DocumentResult, ErrorItem

logger = logging.getLogger(__name__)

PathLike = str | Path
OnError = Literal["skip", "raise"]
"""What a loader does with a file it cannot read: skip it (warn and list it) or raise."""
ON_ERROR: OnError = "skip"


class LoadError(PagereaderError):
    """A document could not be read at all (``on_error="raise"``)."""

    stage = "load"
    default_hint = "fix or remove the file, or pass on_error='skip' to load the others"


class LoadWarning(UserWarning):
    """A document could not be read and was skipped; the loader's ``failures`` lists it."""


def on_error_choice(value: str) -> OnError:
    """``value`` if it is one of :data:`OnError`'s choices; ValueError naming them if not."""
    choices: tuple[OnError, ...] = get_args(OnError)
    for choice in choices:
        if value == choice:
            return choice
    raise ValueError(f"on_error must be one of {', '.join(map(repr, choices))}, not {value!r}")


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
    paths: Sequence[Path],
    options: Options | None = None,
    on_error: OnError = ON_ERROR,
    failures: list[ErrorItem] | None = None,
) -> Iterator[tuple[DocumentResult, Chunk]]:
    """Each file's chunks in reading order, file after file. A partial document is loaded
    with a warning naming what was lost; a failed one is skipped with a LoadWarning and
    appended to ``failures``, or raised in a LoadError when ``on_error`` is ``"raise"``."""
    output = (options or Options()).output
    for path in paths:
        try:
            result = parse(path, options)
        except PagereaderError as exc:
            failed: ErrorItem | None = exc.to_item().model_copy(
                update={"file": exc.file or str(path)}
            )
        else:
            failed = _failure(path, result)
        if failed is not None:
            if on_error == "raise":
                hint = "; ".join(filter(None, (failed.hint, LoadError.default_hint)))
                raise LoadError(failed.message, file=failed.file, page=failed.page, hint=hint)
            if failures is not None:
                failures.append(failed)
            warnings.warn(f"{failed.line()}; skipped", LoadWarning, stacklevel=2)
            continue
        if result.status == "partial":
            lines = "; ".join(error.line() for error in result.errors)
            logger.warning("%s: partly read: %s", result.source, lines)
        for chunk in chunks(result, output.chunk_tokens, output.chunk_tokenizer):
            yield result, chunk


def _failure(path: Path, result: DocumentResult) -> ErrorItem | None:
    """Why a document was not read at all (its first error), or None when it was read."""
    if result.status != "failed":
        return None
    if result.errors:
        return result.errors[0]
    return ErrorItem(file=str(path), stage="load", message="not read")
