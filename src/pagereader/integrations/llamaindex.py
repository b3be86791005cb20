"""LlamaIndex: :class:`PagereaderReader` reads documents with pagereader into one
``Document`` per chunk with its provenance in the metadata (source, pages, boxes, heading
path, article id, chunk id); the boxes are kept out of the text embedded and shown to the LLM.

    from pagereader.integrations.llamaindex import PagereaderReader
    documents = PagereaderReader().load_data("statute.pdf")
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

try:
    from llama_index.core.readers.base import BaseReader
    from llama_index.core.schema import Document
except ModuleNotFoundError as exc:  # said in one line, naming the extra to install
    raise ModuleNotFoundError(
        f"{exc.name} is missing: pip install 'pagereader[llamaindex]'", name=exc.name
    ) from exc

from pagereader.integrations.loading import PathLike, as_paths, chunk_metadata, parsed_chunks
from pagereader.options import Options

_NOT_FOR_MODELS = ["boxes", "status", "chunk_id"]


class PagereaderReader(BaseReader):
    """Documents (PDF, PPTX, DOCX, images) as chunk-sized LlamaIndex Documents."""

    def __init__(self, *, options: Options | None = None) -> None:
        super().__init__()
        self._options = options

    def load_data(
        self, file: PathLike | Sequence[PathLike], extra_info: dict[str, Any] | None = None
    ) -> list[Document]:
        """One Document per chunk of each file; ``extra_info`` is added to every metadata."""
        documents = []
        for result, chunk in parsed_chunks(as_paths(file), self._options):
            documents.append(
                Document(
                    text=chunk.text,
                    id_=f"{result.source}#{chunk.id}",
                    metadata={**(extra_info or {}), **chunk_metadata(result, chunk)},
                    excluded_embed_metadata_keys=list(_NOT_FOR_MODELS),
                    excluded_llm_metadata_keys=list(_NOT_FOR_MODELS),
                )
            )
        return documents
