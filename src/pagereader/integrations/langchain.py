"""LangChain: :class:`PagereaderLoader` reads documents with pagereader and yields one
``Document`` per chunk, whose metadata says where the chunk was read (source, pages, boxes,
heading path, article id, chunk id), so that an answer can cite its page and article.

    from pagereader.integrations.langchain import PagereaderLoader
    docs = PagereaderLoader("statute.pdf").load()

A file that cannot be read is skipped with a ``LoadWarning`` and listed in ``failures``
(``on_error="skip"``, the default), or raised (``on_error="raise"``): see loading.py.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from pagereader.errors import install_line

try:
    from langchain_core.document_loaders import BaseLoader
    from langchain_core.documents import Document
except ModuleNotFoundError as exc:  # said in one line, naming the extra to install
    raise ModuleNotFoundError(
        f"{exc.name} is missing: {install_line('langchain')}", name=exc.name
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


class PagereaderLoader(BaseLoader):
    """Documents (PDF, PPTX, DOCX, images) as chunk-sized LangChain Documents.

    ``on_error``: ``"skip"`` (default) loads the files that can be read, warns of each other
    one and lists it in :attr:`failures`; ``"raise"`` raises a LoadError naming the first
    file that cannot be read."""

    def __init__(
        self,
        file_path: PathLike | Sequence[PathLike],
        *,
        options: Options | None = None,
        on_error: OnError = ON_ERROR,
    ) -> None:
        self.paths = as_paths(file_path)
        self.options = options
        self.on_error = on_error_choice(on_error)
        self.failures: list[ErrorItem] = []
        """The files the last load skipped, each with why (``.line()`` says it in one line)."""

    def lazy_load(self) -> Iterator[Document]:
        """One Document per chunk, file after file; see :func:`parsed_chunks` for failures."""
        self.failures = []
        for result, chunk in parsed_chunks(self.paths, self.options, self.on_error, self.failures):
            yield Document(
                page_content=chunk.text,
                metadata=chunk_metadata(result, chunk),
                id=f"{result.source}#{chunk.id}",
            )
