"""LlamaIndex: :class:`PagereaderReader` reads documents with pagereader into one
``Document`` per chunk with its provenance in the metadata (source, pages, boxes, heading
path, article id, chunk id); the boxes are kept out of the text embedded and shown to the LLM.

    from pagereader.integrations.llamaindex import PagereaderReader
    documents = PagereaderReader().load_data("statute.pdf")

A file that cannot be read is skipped with a ``LoadWarning`` and listed in ``failures``
(``on_error="skip"``, the default, as ``SimpleDirectoryReader(raise_on_error=False)``), or
raised (``on_error="raise"``): see loading.py.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from pagereader.errors import install_line

try:
    from llama_index.core.readers.base import BaseReader
    from llama_index.core.schema import Document
except ModuleNotFoundError as exc:  # said in one line, naming the extra to install
    raise ModuleNotFoundError(
        f"{exc.name} is missing: {install_line('llamaindex')}", name=exc.name
    ) from exc

from pagereader.config.options import Options
from pagereader.integrations.loading import (
    ON_ERROR,
    OnError,
    PathLike,
    as_paths,
    chunk_metadata,
    on_error_choice,
    parsed_chunks,
)
from pagereader.types import ErrorItem

_NOT_FOR_MODELS = ["boxes", "status", "chunk_id"]


class PagereaderReader(BaseReader):
    """Documents (PDF, PPTX, DOCX, images) as chunk-sized LlamaIndex Documents.

    ``on_error``: ``"skip"`` (default) loads the files that can be read, warns of each other
    one and lists it in :attr:`failures`; ``"raise"`` raises a LoadError naming the first
    file that cannot be read."""

    def __init__(self, *, options: Options | None = None, on_error: OnError = ON_ERROR) -> None:
        super().__init__()
        self._options = options
        self.on_error = on_error_choice(on_error)
        self.failures: list[ErrorItem] = []
        """The files the last load skipped, each with why (``.line()`` says it in one line)."""

    def lazy_load_data(
        self, file: PathLike | Sequence[PathLike], extra_info: dict[str, Any] | None = None
    ) -> Iterator[Document]:
        """One Document per chunk of each file; ``extra_info`` is added to every metadata.
        ``load_data`` (BaseReader's) is the same as a list."""
        self.failures = []
        chunks = parsed_chunks(as_paths(file), self._options, self.on_error, self.failures)
        for result, chunk in chunks:
            yield Document(
                text=chunk.text,
                id_=f"{result.source}#{chunk.id}",
                metadata={**(extra_info or {}), **chunk_metadata(result, chunk)},
                excluded_embed_metadata_keys=list(_NOT_FOR_MODELS),
                excluded_llm_metadata_keys=list(_NOT_FOR_MODELS),
            )
