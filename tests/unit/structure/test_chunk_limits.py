"""No chunk exceeds its token limit, whatever the text: a block of 2,000,000 "A" (a slide
that once made one 250,000-token chunk), a long Chinese run without spaces or stops, runs of a
family emoji (seven code points joined by ZWJ) and of a letter with two combining marks, and a
single letter under 100,000 marks (one grapheme cluster longer than a chunk). Each chunk is
counted by bpe-openai's public encoder, apart from the counter the chunker uses; the chunks
put back together are the block's text, and a cut falls between grapheme clusters wherever a
cluster fits in a chunk."""

from __future__ import annotations

import functools

import bpe_openai
import pytest

from pagereader.render.markdown import document_markdown, page_markdown
from pagereader.structure.chunks import DEFAULT_CHUNK_TOKENS, document_chunks
from pagereader.types import Block, BlockKind, BlockResult, DocumentResult, PageResult

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
ACCENTED = "e\u0301\u0302"
HAN = "".join(chr(0x4E00 + (k * 7919) % 20000) for k in range(300_000))
RUNS = {
    "latin": "A" * 2_000_000,
    "han": HAN,
    "emoji": FAMILY * 30_000,
    "combining": ACCENTED * 100_000,
    "one cluster": "a" + "\u0301" * 100_000,
}


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def _document(text: str, kind: BlockKind = "text") -> DocumentResult:
    block = BlockResult(block=Block(kind=kind, bbox=(50.0, 50.0, 550.0, 90.0), order=0), text=text)
    page = PageResult(
        index=1, width=600, height=800, blocks=(block,), markdown=page_markdown([block])
    )
    return DocumentResult(
        schema_version="test",
        source="deck.pptx",
        status="ok",
        pages=(page,),
        markdown=document_markdown([page]),
    )


@functools.cache
def _encoding() -> bpe_openai.Encoding:
    return bpe_openai.get_encoding("o200k_base")


def _tokens(text: str) -> int:
    return len(_encoding().encode_ordinary(text))


@pytest.mark.parametrize("name", list(RUNS))
def test_a_run_without_spaces_is_cut_within_the_limit(name: str) -> None:
    text = RUNS[name]
    chunks = document_chunks(_document(text))
    assert "".join(chunk.text for chunk in chunks) == text
    sizes = [_tokens(chunk.text) for chunk in chunks]
    assert max(sizes) <= DEFAULT_CHUNK_TOKENS
    assert [chunk.tokens for chunk in chunks] == sizes
    # full chunks, not a character at a time: on average more than half full
    assert len(chunks) <= 2 * sum(sizes) // DEFAULT_CHUNK_TOKENS + 1
    if name == "emoji":
        assert all(len(c.text) % len(FAMILY) == 0 and c.text.startswith(FAMILY) for c in chunks)
    if name == "combining":
        assert all(len(c.text) % len(ACCENTED) == 0 and c.text.startswith("e") for c in chunks)


def test_a_table_row_longer_than_a_chunk_is_cut_within_the_limit() -> None:
    cell = "B" * 200_000
    chunks = document_chunks(_document(f"| name | value |\n| --- | --- |\n| x | {cell} |", "table"))
    assert max(_tokens(chunk.text) for chunk in chunks) <= DEFAULT_CHUNK_TOKENS
    assert "".join(chunk.text for chunk in chunks).count("B") == len(cell)
