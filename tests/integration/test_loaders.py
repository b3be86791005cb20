"""The LangChain loader and the LlamaIndex reader with the real libraries: a real deck and a
real statute loaded, and the Document holding a known phrase carries the page where the PDF's
own text layer (read here with pypdfium2) prints it, its article, and its boxes on that page."""

from __future__ import annotations

import shutil
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pypdfium2
import pytest
from langchain_core.documents import Document as LangChainDocument
from llama_index.core.schema import Document as LlamaDocument
from llama_index.core.schema import MetadataMode

from pagereader.integrations.langchain import PagereaderLoader
from pagereader.integrations.llamaindex import PagereaderReader
from pagereader.integrations.loading import LoadError

from shared_data import shared

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def pages_printing(pdf: Path, phrase: str) -> list[int]:
    """The pages (from 1) whose text layer holds ``phrase``, spaces and line breaks aside."""
    wanted = "".join(unicodedata.normalize("NFKC", phrase).split())
    document = pypdfium2.PdfDocument(pdf)
    try:
        found = []
        for index, page in enumerate(document):
            text = unicodedata.normalize("NFKC", page.get_textpage().get_text_range())
            if wanted in "".join(text.split()):
                found.append(index + 1)
        return found
    finally:
        document.close()


Loaded = tuple[str, dict[str, Any]]


def langchain_load(paths: list[Path]) -> list[Loaded]:
    documents = list(PagereaderLoader(paths).lazy_load())
    assert all(isinstance(d, LangChainDocument) for d in documents)
    return [(d.page_content, d.metadata) for d in documents]


def llamaindex_load(paths: list[Path]) -> list[Loaded]:
    documents = PagereaderReader().load_data(paths, extra_info={"corpus": "test"})
    assert all(isinstance(d, LlamaDocument) for d in documents)
    assert all(d.metadata["corpus"] == "test" for d in documents)
    assert all("boxes" not in d.get_content(metadata_mode=MetadataMode.EMBED) for d in documents)
    return [(d.text, d.metadata) for d in documents]


LOADERS = [
    pytest.param(langchain_load, id="langchain"),
    pytest.param(llamaindex_load, id="llamaindex"),
]

PHRASES = [
    ("deck.pdf", "Median latency per slide", None),
    ("deck.pdf", "年度文件數位化成果", None),
    ("deck.pdf", "하루 평균 처리량", None),
    ("N0030001.pdf", "在坑道或隧道內工作之勞工", "art-31"),
    ("N0030001.pdf", "其工作時間得依下列原則變更", "art-30-1"),
]


@pytest.mark.parametrize("load", LOADERS)
def test_a_phrase_carries_its_page_article_and_boxes(
    load: Callable[[list[Path]], list[Loaded]],
) -> None:
    files = {
        "deck.pdf": EXAMPLES / "deck.pdf",
        "N0030001.pdf": shared("eval", "real_legal", "N0030001.pdf"),
    }
    loaded = load(list(files.values()))
    for name, phrase, article in PHRASES:
        pages = pages_printing(files[name], phrase)
        assert pages, (name, phrase)
        holding = [
            meta
            for text, meta in loaded
            if Path(meta["source"]).name == name
            and "".join(phrase.split()) in "".join(text.split())
        ]
        assert holding, (name, phrase)
        meta = holding[0]
        assert meta["pages"][0] == pages[0] and set(meta["pages"]) <= set(range(1, 50)), meta
        assert meta["status"] == "ok" and meta["chunk_id"]
        assert {box["page"] for box in meta["boxes"]} == set(meta["pages"])
        assert all(len(box["bbox"]) == 4 for box in meta["boxes"])
        if article is not None:
            assert meta["article_id"] == article, meta
    ids = [meta["chunk_id"] for _, meta in loaded if Path(meta["source"]).name == "deck.pdf"]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("load", LOADERS)
def test_a_failed_file_is_raised_after_the_others(
    load: Callable[[list[Path]], list[Loaded]], tmp_path: Path
) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7 this is not a PDF")
    good = tmp_path / "deck.pdf"
    shutil.copy(EXAMPLES / "deck.pdf", good)
    with pytest.raises(LoadError) as caught:
        load([broken, good])
    assert "1 of 2 document(s) could not be read" in caught.value.message
    assert str(broken) in caught.value.message
