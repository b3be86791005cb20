"""LangChain: :class:`PagereaderLoader` reads documents with pagereader and yields one
``Document`` per chunk, whose metadata says where the chunk was read (source, pages, boxes,
heading path, article id, chunk id), so that an answer can cite its page and article.

    from pagereader.integrations.langchain import PagereaderLoader
    docs = PagereaderLoader("statute.pdf").load()
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

try:
    from langchain_core.document_loaders import BaseLoader
    from langchain_core.documents import Document
except ModuleNotFoundError as exc:  # said in one line, naming the extra to install
    raise ModuleNotFoundError(
        f"{exc.name} is missing: pip install 'pagereader[langchain]'", name=exc.name
    ) from exc

from pagereader.integrations.loading import PathLike, as_paths, chunk_metadata, parsed_chunks
from pagereader.options import Options


class PagereaderLoader(BaseLoader):
    """Documents (PDF, PPTX, DOCX, images) as chunk-sized LangChain Documents."""

    def __init__(
        self, file_path: PathLike | Sequence[PathLike], *, options: Options | None = None
    ) -> None:
        self.paths = as_paths(file_path)
        self.options = options

    def lazy_load(self) -> Iterator[Document]:
        """One Document per chunk, file after file; see :func:`parsed_chunks` for failures."""
        for result, chunk in parsed_chunks(self.paths, self.options):
            yield Document(
                page_content=chunk.text,
                metadata=chunk_metadata(result, chunk),
                id=f"{result.source}#{chunk.id}",
            )
