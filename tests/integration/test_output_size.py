"""document.json grows with a page's text, not with its characters' boxes: a plain-text PDF
made by code, parsed by the real CLI and pipeline (pypdfium2 text layer, embedded engines).
Per-character boxes are there only when asked for (``--char-boxes``, ``output.char_boxes``),
and what a parse keeps for the whole document holds none of them, nor any page's pixels."""

from __future__ import annotations

import asyncio
import gc
import json
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from PIL import Image
from typer.testing import CliRunner

from pagereader.cli.main import app
from pagereader.config.options import Options
from pagereader.pipeline import aparse, make_context
from pagereader.reuse.cache import options_digest
from pagereader.sources.base import RenderedPage
from pagereader.types import PageResult

from fixtures.long_text import LINES_PER_PAGE, page_lines, write_text_pdf

PAGES = 3
PAGE_BUDGET_BYTES = 60_000
"""The goal for a page of 45 lines of text (about 3,700 characters): 15x its text at most."""


def _lines(document: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for page in document["pages"]:
        for block in page["blocks"]:
            yield from block["block"]["lines"]


def _parse(tmp_path: Path, *flags: str) -> tuple[dict[str, Any], str]:
    pdf = write_text_pdf(tmp_path / "report.pdf", PAGES)
    out = tmp_path / "out"
    done = CliRunner().invoke(app, ["parse", str(pdf), "-o", str(out), "--no-resume", *flags])
    assert done.exit_code == 0, done.output
    record = (out / "report" / "document.json").read_text(encoding="utf-8")
    markdown = (out / "report" / "document.md").read_text(encoding="utf-8")
    return json.loads(record), markdown


def test_document_json_of_text_pages_holds_their_text_not_char_boxes(tmp_path: Path) -> None:
    document, markdown = _parse(tmp_path)
    size = len(json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8"))
    assert len(document["pages"]) == PAGES
    for page in range(1, PAGES + 1):  # the text is all there
        for line in page_lines(page):
            assert line in markdown
    lines = list(_lines(document))
    assert len(lines) >= PAGES * LINES_PER_PAGE
    assert all(line["char_boxes"] == [] for line in lines)
    assert all(len(line["bbox"]) == 4 for line in lines)
    assert size / PAGES < PAGE_BUDGET_BYTES, f"{size / PAGES:.0f} bytes a page"
    assert document["schema_version"] == "2.3"


def test_char_boxes_are_kept_when_asked_for(tmp_path: Path) -> None:
    document, _ = _parse(tmp_path, "--char-boxes")
    boxed = [line for line in _lines(document) if line["char_boxes"]]
    assert len(boxed) >= PAGES * LINES_PER_PAGE
    for line in boxed:
        assert len(line["char_boxes"]) == len(line["text"])
        x0, y0, x1, y1 = line["bbox"]
        first, last = line["char_boxes"][0], line["char_boxes"][-1]
        assert abs(first[0] - x0) < 0.5 and abs(last[2] - x1) < 0.5
        assert all(y0 - 0.5 <= box[1] <= box[3] <= y1 + 0.5 for box in line["char_boxes"])


def test_a_cached_page_is_not_served_to_a_run_that_wants_other_boxes() -> None:
    plain = Options()
    boxed = Options.model_validate({"output": {"char_boxes": True}})
    no_overlays = Options.model_validate({"output": {"overlays": False}})
    assert options_digest(plain) != options_digest(boxed)
    assert options_digest(plain) == options_digest(no_overlays)


def test_a_parse_keeps_neither_pixels_nor_char_boxes_of_finished_pages(tmp_path: Path) -> None:
    pdf = write_text_pdf(tmp_path / "report.pdf", PAGES)
    images: list[weakref.ref[Image.Image]] = []
    boxes_seen: list[int] = []

    def on_page(result: PageResult, rendered: RenderedPage | None) -> None:
        assert rendered is not None
        images.append(weakref.ref(rendered.image))
        boxes_seen.append(sum(len(line.char_boxes) for line in rendered.lines))

    result = asyncio.run(aparse(pdf, ctx=make_context(), on_page=on_page))
    gc.collect()
    assert len(images) == PAGES and all(count > 3000 for count in boxes_seen)
    assert [ref() for ref in images] == [None] * PAGES
    kept = [
        line.char_boxes
        for page in result.pages
        for block in page.blocks
        for line in block.block.lines
        if line.char_boxes
    ]
    assert result.status == "ok" and kept == []
