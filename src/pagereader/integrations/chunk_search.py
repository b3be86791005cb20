"""A parsed document's chunks (``chunks.jsonl`` beside document.md), listed a page of results
at a time or searched for a phrase. The phrase and each chunk are compared as text.normalize
compares texts (NFKC, variant glyphs folded, Markdown and whitespace dropped) and case-folded,
so a phrase matches across line breaks, CJK spacing and full-width forms."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from pagereader.errors import InputError
from pagereader.render.files import CHUNKS_JSONL
from pagereader.structure.chunks import read_chunks_jsonl
from pagereader.text.chars import normalize
from pagereader.types import Chunk

CHUNKS_FILE = CHUNKS_JSONL.name


class ChunkHit(BaseModel):
    """One chunk in an answer: its text and where it was read."""

    model_config = ConfigDict(frozen=True)

    id: str
    text: str
    pages: list[int]
    heading_path: list[str]
    article_id: str | None
    matches: int = 0


class ChunkList(BaseModel):
    """Chunks of one document; ``total`` counts all that qualify, ``chunks`` the ones sent."""

    model_config = ConfigDict(frozen=True)

    document: str
    total: int
    offset: int
    chunks: list[ChunkHit]


def read_chunks(folder: Path) -> tuple[Chunk, ...]:
    """The chunks of a parsed document's folder, in reading order."""
    try:
        text = (folder / CHUNKS_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(
            f"no {CHUNKS_FILE} in the output folder",
            file=folder.name,
            hint="parse the document again with this version of pagereader",
        ) from None
    try:
        return read_chunks_jsonl(text)
    except ValidationError as exc:
        raise InputError(
            f"{CHUNKS_FILE} is not a list of chunks: {exc}", file=folder.name
        ) from None


def _hit(chunk: Chunk, matches: int = 0) -> ChunkHit:
    return ChunkHit(
        id=chunk.id,
        text=chunk.text,
        pages=list(chunk.pages),
        heading_path=list(chunk.heading_path),
        article_id=chunk.article_id,
        matches=matches,
    )


def _folded(text: str) -> str:
    return normalize(text).casefold()


def list_chunks(document: str, folder: Path, offset: int, limit: int) -> ChunkList:
    chunks = read_chunks(folder)
    start = max(offset, 0)
    sent = [_hit(chunk) for chunk in chunks[start : start + limit]]
    return ChunkList(document=document, total=len(chunks), offset=start, chunks=sent)


def search_chunks(document: str, folder: Path, query: str, limit: int) -> ChunkList:
    """The chunks holding ``query``, most occurrences first, then in reading order."""
    phrase = _folded(query)
    if not phrase:
        raise InputError("the search phrase is empty", file=document)
    chunks = read_chunks(folder)
    counts = [_folded(chunk.text).count(phrase) for chunk in chunks]
    found = sorted((-count, index) for index, count in enumerate(counts) if count)
    sent = [_hit(chunks[index], -negative) for negative, index in found[:limit]]
    return ChunkList(document=document, total=len(found), offset=0, chunks=sent)
