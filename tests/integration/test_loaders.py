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
from pagereader.integrations.loading import LoadError, LoadWarning, OnError
from pagereader.types import ErrorItem

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


Loader = Callable[[list[Path], OnError], tuple[list[Loaded], list[ErrorItem]]]


def langchain_loader(paths: list[Path], on_error: OnError) -> tuple[list[Loaded], list[ErrorItem]]:
    loader = PagereaderLoader(paths, on_error=on_error)
    documents = loader.load()
    return [(d.page_content, d.metadata) for d in documents], loader.failures


def llamaindex_loader(paths: list[Path], on_error: OnError) -> tuple[list[Loaded], list[ErrorItem]]:
    reader = PagereaderReader(on_error=on_error)
    documents = reader.load_data(paths)
    return [(d.text, d.metadata) for d in documents], reader.failures


LOADER_OBJECTS = [
    pytest.param(langchain_loader, id="langchain"),
    pytest.param(llamaindex_loader, id="llamaindex"),
]


@pytest.fixture
def three_files(tmp_path: Path) -> list[Path]:
    """A deck, a corrupt PDF and a statute, in that order."""
    good = tmp_path / "deck.pdf"
    shutil.copy(EXAMPLES / "deck.pdf", good)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7 this is not a PDF")
    statute = tmp_path / "statute.pdf"
    shutil.copy(shared("eval", "real_legal", "N0030001.pdf"), statute)
    return [good, broken, statute]


@pytest.mark.parametrize("load", LOADER_OBJECTS)
def test_a_corrupt_file_is_skipped_with_a_warning_and_listed(
    load: Loader, three_files: list[Path]
) -> None:
    good, broken, statute = three_files
    with pytest.warns(LoadWarning) as warned:
        loaded, failures = load(three_files, "skip")
    assert {meta["source"] for _, meta in loaded} == {str(good), str(statute)}
    phrase = "在坑道或隧道內工作之勞工"
    assert any(phrase in "".join(text.split()) for text, _ in loaded)
    assert [item.file for item in failures] == [str(broken)]
    assert "not a readable PDF" in failures[0].message
    messages = [str(w.message) for w in warned if issubclass(w.category, LoadWarning)]
    assert messages == [f"{failures[0].line()}; skipped"]


@pytest.mark.parametrize("load", LOADER_OBJECTS)
def test_on_error_raise_names_the_file(load: Loader, three_files: list[Path]) -> None:
    with pytest.raises(LoadError) as caught:
        load(three_files, "raise")
    assert caught.value.file == str(three_files[1])
    assert str(caught.value).startswith(f"{three_files[1]}: not a readable PDF")
    assert "on_error='skip'" in caught.value.hint


def test_an_unknown_on_error_is_refused() -> None:
    with pytest.raises(ValueError, match="on_error must be one of 'skip', 'raise', not 'ignore'"):
        PagereaderLoader("a.pdf", on_error="ignore")  # type: ignore[arg-type]
