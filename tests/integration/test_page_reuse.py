"""Cross-document page reuse through the pipeline's lookup hook: two decks sharing a slide, a
changed option, a document read again, pixel-identical pages with different hidden text."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas
from typer.testing import CliRunner

from pagereader.cli.main import app
from pagereader.config.file import override
from pagereader.config.options import Options
from pagereader.pipeline import aparse, aparse_to_folder, make_context, parse
from pagereader.reuse.digest import raster_digest
from pagereader.reuse.page_store import PageStore
from pagereader.sources import open_source
from pagereader.types import DocumentResult

from fixtures import deck_of_pages


def _texts(result: DocumentResult, page: int) -> list[str]:
    return [block.text for block in result.pages[page - 1].blocks]


def test_a_shared_slide_is_read_once_across_decks(tmp_path: Path) -> None:
    first = deck_of_pages(tmp_path / "first.pdf", [0, 1])
    second = deck_of_pages(tmp_path / "second.pdf", [2, 1, 3])
    store = PageStore(tmp_path / "pages.sqlite")
    ctx = make_context()
    ctx = dataclasses.replace(ctx, shared_pages=store)

    async def both() -> tuple[DocumentResult, DocumentResult]:
        one = await aparse(first, ctx=ctx)
        two = await aparse_to_folder(second, tmp_path / "out", ctx)
        return one, two

    one, two = asyncio.run(both())
    assert [(p.duplicate_of, p.duplicate_of_source) for p in one.pages] == [(None, None)] * 2
    assert [(p.duplicate_of, p.duplicate_of_source) for p in two.pages] == [
        (None, None),
        (2, str(first)),
        (None, None),
    ]
    shared = two.pages[1]
    assert shared.index == 2
    assert shared.timings is not None and shared.timings.stages["recognize"] == 0.0
    fresh = parse(second)
    assert _texts(two, 2) == _texts(fresh, 2) and any(_texts(fresh, 2))
    assert two.markdown == fresh.markdown
    document = json.loads((tmp_path / "out" / "document.json").read_text(encoding="utf-8"))
    assert document["pages"][1]["duplicate_of"] == 2
    assert document["pages"][1]["duplicate_of_source"] == str(first)
    assert document["pages"][0]["duplicate_of_source"] is None
    assert store.reused == 1
    store.close()


def test_other_options_or_the_same_page_are_misses(tmp_path: Path) -> None:
    first = deck_of_pages(tmp_path / "first.pdf", [0, 1])
    second = deck_of_pages(tmp_path / "second.pdf", [1])
    store = PageStore(tmp_path / "pages.sqlite")
    ctx = make_context()
    ctx = dataclasses.replace(ctx, shared_pages=store)
    coarse = make_context(override(Options(), {("render", "dpi"): 150}, "test"))
    coarse = dataclasses.replace(coarse, shared_pages=store)

    async def runs() -> list[DocumentResult]:
        return [
            await aparse(first, ctx=ctx),
            await aparse(first, ctx=ctx),  # read again: pages never find themselves
            await aparse(second, ctx=coarse),  # other dpi: a miss
            await aparse(second, ctx=ctx),  # same options: a hit
        ]

    results = asyncio.run(runs())
    marks = [[p.duplicate_of_source for p in result.pages] for result in results]
    assert marks == [[None, None], [None, None], [None], [str(first)]]
    assert store.count() == 3  # two pages at 200 dpi, one at 150
    store.close()


def _hidden_text_page(dest: Path, hidden: str) -> Path:
    """A slide with a visible title and invisible text (text render mode 3) under it: the
    pixels do not depend on ``hidden``, the text layer does."""
    canvas = Canvas(str(dest), pagesize=(720, 405))
    canvas.setFont("Helvetica-Bold", 36)
    canvas.drawString(60, 300, "Section two")
    text = canvas.beginText(60, 200)
    text.setTextRenderMode(3)
    text.setFont("Helvetica", 24)
    text.textLine(hidden)
    canvas.drawText(text)
    canvas.save()
    return dest


def test_identical_pixels_with_other_hidden_text_are_not_reused(tmp_path: Path) -> None:
    a = _hidden_text_page(tmp_path / "a.pdf", "first hidden words")
    b = _hidden_text_page(tmp_path / "b.pdf", "other hidden words")
    c = _hidden_text_page(tmp_path / "c.pdf", "first hidden words")
    store = PageStore(tmp_path / "pages.sqlite")
    ctx = make_context()
    ctx = dataclasses.replace(ctx, shared_pages=store)

    async def runs() -> list[DocumentResult]:
        return [await aparse(path, ctx=ctx) for path in (a, b, c)]

    _, rb, rc = asyncio.run(runs())
    digests = set()
    for path in (a, b):
        source = open_source(
            path, password=None, max_image_pixels=Options().render.max_image_pixels
        )
        digests.add(raster_digest(source.render(1, Options().render.dpi)))
        source.close()
    assert len(digests) == 1  # the same pixels
    assert store.count() == 2  # a and b differ only in their text layer
    assert rb.pages[0].duplicate_of_source is None
    assert rc.pages[0].duplicate_of_source == str(a)
    assert _texts(rc, 1) == _texts(parse(c), 1)
    store.close()


def test_parse_reuses_pages_across_the_documents_of_one_call(tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    first = deck_of_pages(inputs / "a.pdf", [0, 1])
    deck_of_pages(inputs / "b.pdf", [1, 2])
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["parse", str(inputs), "-o", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    pages = json.loads((out / "b" / "document.json").read_text(encoding="utf-8"))["pages"]
    assert [(p["duplicate_of"], p["duplicate_of_source"]) for p in pages] == [
        (2, str(first)),
        (None, None),
    ]
    alone = tmp_path / "alone"
    result = CliRunner().invoke(app, ["parse", str(inputs / "b.pdf"), "-o", str(alone)])
    assert result.exit_code == 0, result.output
    assert (alone / "b" / "document.md").read_bytes() == (out / "b" / "document.md").read_bytes()


def test_a_store_that_fails_only_costs_the_reuse(tmp_path: Path) -> None:
    second = deck_of_pages(tmp_path / "second.pdf", [1])
    store = PageStore(tmp_path / "pages.sqlite")
    store.close()  # every lookup and write now fails inside SQLite
    ctx = make_context()
    ctx = dataclasses.replace(ctx, shared_pages=store)
    result = asyncio.run(aparse(second, ctx=ctx))
    assert result.status == "ok"
    assert _texts(result, 1) == _texts(parse(second), 1)
    assert result.pages[0].duplicate_of is None
