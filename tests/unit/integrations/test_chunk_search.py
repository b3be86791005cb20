"""Chunks listed a page at a time and searched for a phrase across line breaks, CJK spacing
and full-width forms."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagereader.errors import InputError
from pagereader.integrations.chunk_search import CHUNKS_FILE, list_chunks, search_chunks
from pagereader.structure.chunks import chunks_jsonl
from pagereader.types import Chunk, ChunkBox

TEXTS = [
    ("第 30 條 勞工正常工作時間，每日不得超過八小時。", (1,), ("第三章 工資",), "art-30"),
    ("Median latency per\nslide fell. Latency again: LATENCY.", (1, 2), (), None),
    ("雇主不得拒絕。 正常 工作 時間 之修正", (2,), ("第三章 工資",), "art-30"),
]
CHUNKS = [
    Chunk(
        id=f"c{n}",
        text=text,
        heading_path=path,
        article_id=article,
        pages=pages,
        boxes=tuple(ChunkBox(page=p, bbox=(0.0, 0.0, 10.0, 10.0)) for p in pages),
        blocks=tuple((p, 0) for p in pages),
        md_start=0,
        md_end=len(text),
        tokens=len(text),
    )
    for n, (text, pages, path, article) in enumerate(TEXTS, 1)
]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / CHUNKS_FILE).write_text(chunks_jsonl(CHUNKS), encoding="utf-8")
    return tmp_path


def test_list_pages_through_the_chunks(folder: Path) -> None:
    first = list_chunks("doc", folder, 0, 2)
    assert first.total == 3 and [c.id for c in first.chunks] == ["c1", "c2"]
    rest = list_chunks("doc", folder, 2, 2)
    assert [c.id for c in rest.chunks] == ["c3"] and rest.chunks[0].pages == [2]
    assert list_chunks("doc", folder, 9, 2).chunks == []


def test_search_folds_case_spacing_and_width(folder: Path) -> None:
    found = search_chunks("doc", folder, "latency", 10)
    assert [(c.id, c.matches) for c in found.chunks] == [("c2", 3)]
    across = search_chunks("doc", folder, "latency per slide", 10)
    assert [c.id for c in across.chunks] == ["c2"]
    han = search_chunks("doc", folder, "正常工作時間", 10)
    assert [c.id for c in han.chunks] == ["c1", "c3"] and han.total == 2
    assert han.chunks[0].heading_path == ["第三章 工資"] and han.chunks[0].article_id == "art-30"
    wide = search_chunks("doc", folder, "ＬＡＴＥＮＣＹ", 1)
    assert [c.id for c in wide.chunks] == ["c2"]
    assert search_chunks("doc", folder, "absent phrase", 10).total == 0


def test_bad_input_is_named(folder: Path, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="empty"):
        search_chunks("doc", folder, "  ", 10)
    (folder / CHUNKS_FILE).write_text('{"id": "x"}\n', encoding="utf-8")
    with pytest.raises(InputError, match="is not a list of chunks"):
        list_chunks("doc", folder, 0, 5)
    with pytest.raises(InputError, match=f"no {CHUNKS_FILE}"):
        list_chunks("doc", tmp_path / "nowhere", 0, 5)
