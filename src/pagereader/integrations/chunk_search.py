"""A parsed document's chunks (``chunks.jsonl`` beside document.md), listed a page of results
at a time or searched for a phrase. The phrase and each chunk are compared as text.normalize
compares texts (NFKC, variant glyphs folded, Markdown and whitespace dropped) and case-folded,
so a phrase matches across line breaks, CJK spacing and full-width forms."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from pagereader.errors import InputError
from pagereader.text import normalize

CHUNKS_FILE = "chunks.jsonl"


class ChunkRecord(BaseModel):
    """The fields of one chunks.jsonl line the adapters answer with."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    id: str
    text: str
    heading_path: tuple[str, ...] = ()
    article_id: str | None = None
    pages: tuple[int, ...] = ()


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


def read_chunks(folder: Path) -> list[ChunkRecord]:
    """The chunks of a parsed document's folder, in reading order."""
    path = folder / CHUNKS_FILE
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise InputError(
            f"no {CHUNKS_FILE} in the output folder",
            file=folder.name,
            hint="parse the document again with this version of pagereader",
        ) from None
    chunks = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            chunks.append(ChunkRecord.model_validate_json(line))
        except ValidationError as exc:
            message = f"{CHUNKS_FILE} line {number} is not a chunk: {exc.errors()[0]['msg']}"
            raise InputError(message, file=folder.name) from None
    return chunks


def _hit(chunk: ChunkRecord, matches: int = 0) -> ChunkHit:
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
