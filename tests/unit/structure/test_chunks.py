"""Chunks of a small document built here: headings lead the chunk after them, short sibling
sections under one parent share a chunk, a long one is cut within the limit, and every chunk's
offsets slice document.md to its own text."""

from __future__ import annotations

import pytest

from pagereader.render.markdown import document_markdown, page_markdown
from pagereader.structure.chunks import document_chunks
from pagereader.structure.tokens import token_counter
from pagereader.types import Block, BlockKind, BlockResult, DocumentResult, PageResult


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def _block(
    order: int, kind: BlockKind, text: str, level: int | None, path: tuple[str, ...]
) -> BlockResult:
    bbox = (50.0, 50.0 + 40 * order, 550.0, 80.0 + 40 * order)
    block = Block(kind=kind, bbox=bbox, order=order)
    return BlockResult(block=block, text=text, level=level, heading_path=path)


def _document(blocks: list[BlockResult]) -> DocumentResult:
    page = PageResult(
        index=1,
        width=600,
        height=800,
        blocks=tuple(blocks),
        markdown=page_markdown(blocks),
        overlay_scale=2.0,
    )
    return DocumentResult(
        schema_version="test",
        source="report.pdf",
        status="ok",
        pages=(page,),
        markdown=document_markdown([page]),
    )


REPORT = _document(
    [
        _block(0, "title", "Annual Report", 1, ()),
        _block(1, "title", "1 Introduction", 2, ("Annual Report",)),
        _block(2, "text", "The company grew.", None, ("Annual Report", "1 Introduction")),
        _block(3, "title", "2 Scope", 2, ("Annual Report",)),
        _block(4, "text", "All offices are covered.", None, ("Annual Report", "2 Scope")),
    ]
)


def test_short_siblings_share_a_chunk_under_their_parent() -> None:
    (chunk,) = document_chunks(REPORT, 512)
    assert chunk.heading_path == ("Annual Report",)
    assert chunk.text.startswith("# Annual Report\n\n## 1 Introduction\n\nThe company grew.")
    assert chunk.text.endswith("## 2 Scope\n\nAll offices are covered.")
    assert REPORT.markdown[chunk.md_start : chunk.md_end].endswith("All offices are covered.")
    assert chunk.blocks == ((1, 0), (1, 1), (1, 2), (1, 3), (1, 4))
    (box,) = chunk.boxes
    assert box.bbox == (50.0, 50.0, 550.0, 240.0)
    assert box.pixel_bbox == (100.0, 100.0, 1100.0, 480.0)


def test_siblings_that_do_not_fit_together_keep_their_own_paths() -> None:
    count = token_counter("o200k_base")
    first, second = document_chunks(REPORT, 20)
    assert first.heading_path == ("Annual Report", "1 Introduction")
    assert first.text == "# Annual Report\n\n## 1 Introduction\n\nThe company grew."
    assert second.heading_path == ("Annual Report", "2 Scope")
    for chunk in (first, second):
        assert chunk.tokens == count(chunk.text) <= 20
        assert REPORT.markdown[chunk.md_start : chunk.md_end] == chunk.text
    assert [c.id for c in (first, second)] == ["c0001", "c0002"]


def test_a_long_paragraph_is_cut_at_sentences_with_their_own_offsets() -> None:
    sentences = [f"Sentence number {i} says something about the offices." for i in range(30)]
    text = " ".join(sentences)
    document = _document([_block(0, "text", text, None, ())])
    chunks = document_chunks(document, 40)
    assert len(chunks) > 3
    assert " ".join(c.text for c in chunks) == text
    for chunk in chunks:
        assert chunk.tokens <= 40
        assert document.markdown[chunk.md_start : chunk.md_end] == chunk.text
