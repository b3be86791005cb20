"""The whole-page route over loopback: real VLM answers served by the scripted fault server for
their own input images, read back into the page's blocks; an unreadable answer sent down the
route's chain with its raw text kept; the request's shape; and the verifier on the blocks of a
whole-page answer (a reading the embedded OCR disagrees with, a box on blank paper)."""

from __future__ import annotations

import asyncio
import base64
import html
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from pagereader.config.options import DEFAULT_ROUTES, OpenAIEngineOptions, Options
from pagereader.engine_server.server import serve_in_thread
from pagereader.errors import ConfigError
from pagereader.pipeline import STAGE_NAMES, aparse, make_context
from pagereader.pixels import smart_resize
from pagereader.render.json import document_json
from pagereader.stages.page_read import RAW_KEPT
from pagereader.types import DocumentResult, PageResult

from dialect_samples import SAMPLES, Sample, f1, folder, raw, reference_text, tokens
from fault_server import Fault, FaultServer

Served = tuple[FaultServer, str]
EXAMPLES = Path(__file__).parents[2] / "examples"
COOKBOOK_MAX_PIXELS = 12_845_056
"""qwen-vl-utils' max_pixels, under which the cookbook's samples were answered."""


@pytest.fixture(scope="module")
def fault() -> Iterator[Served]:
    server = FaultServer()
    with serve_in_thread(server.app()) as url:
        yield server, url


def _image(sample: Sample) -> Path:
    return folder() / f"{sample.name}.jpg"


IMAGE_SAMPLES = tuple(s for s in SAMPLES if _image(s).exists())


def _pixels(path: Path) -> Image.Image:
    """The image's pixels, whatever decompression limit an earlier parse left in Pillow."""
    limit, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None
    try:
        with Image.open(path) as image:
            image.load()
            return image.copy()
    finally:
        Image.MAX_IMAGE_PIXELS = limit


def _engine(url: str, dialect: str, **settings: Any) -> OpenAIEngineOptions:
    fields: dict[str, Any] = {"timeout_s": 10.0, "retries": 0, "model": "Qwen/Qwen2.5-VL-72B"}
    return OpenAIEngineOptions(base_url=url, dialect=dialect, **(fields | settings))


async def _parse(path: Path, options: Options) -> DocumentResult:
    ctx = make_context(options)
    try:
        return await aparse(path, ctx=ctx)
    finally:
        await asyncio.gather(*(engine.aclose() for engine in ctx.engines.values()))


def _sample_options(url: str, sample: Sample, pixels: int) -> Options:
    """A page route to an engine of the sample's dialect; the page sent at its own pixels
    (not enlarged for OCR) under the cookbook's bounds, so the request's resize is the one the
    answer was given for."""
    return Options(
        engines={"qwen": _engine(url, sample.dialect)},
        routes={**DEFAULT_ROUTES, "scan.page": ("qwen",), "dense.page": ("qwen",)},
        render={"max_image_pixels": max(pixels, 1_000_000)},
        classify={
            "min_pixels": 3136,
            "sparse_max_pixels": COOKBOOK_MAX_PIXELS,
            "normal_max_pixels": COOKBOOK_MAX_PIXELS,
            "dense_max_pixels": COOKBOOK_MAX_PIXELS,
        },
        verify={"enabled": False},
    )


def _words(page: PageResult) -> str:
    parts = []
    for block in page.blocks:
        text = block.html if block.block.kind == "table" and block.html else block.text
        parts.append(html.unescape(re.sub(r"<[^>]+>", " ", text)))
    return "\n".join(parts)


@pytest.mark.parametrize("sample", IMAGE_SAMPLES, ids=lambda s: s.name)
async def test_a_real_answer_becomes_the_pages_blocks(fault: Served, sample: Sample) -> None:
    server, url = fault
    answer = raw(sample)
    server.reset(Fault(answer=answer))
    width, height = _pixels(_image(sample)).size
    result = await _parse(_image(sample), _sample_options(url, sample, width * height))
    page = result.pages[0]
    assert page.decision is not None and page.decision.page_class in ("scan", "dense")
    assert (page.width, page.height) == (width, height)
    assert len(server.requests) == 1
    (record,) = page.page_answers
    assert record.used and record.parsed and record.raw == answer.strip()
    assert record.engine == "qwen" and record.dialect == sample.dialect
    assert page.blocks and {b.engine for b in page.blocks} == {"qwen"}
    assert all(b.block.source == f"page:{sample.dialect}" for b in page.blocks)
    reference = tokens(reference_text(sample, answer))
    assert f1(tokens(_words(page)), reference) >= 0.95
    for block in page.blocks:
        x0, y0, x1, y1 = block.block.bbox
        assert 0 <= x0 <= x1 <= width and 0 <= y0 <= y1 <= height
    titles = [b.text for b in page.blocks if b.block.kind == "title"]
    for heading in sample.headings:
        assert heading in titles
    marked = re.findall(r"<h[1-6][^>]*>(.*?)</h[1-6]>", answer.split("```html", 2)[-1], re.S)
    if sample.dialect == "qwenvl-html":
        assert titles == [re.sub(r"<[^>]+>", "", h).strip() for h in marked]
    raw_tables = re.findall(r"<table\b", answer)
    tables = [b for b in page.blocks if b.block.kind == "table"]
    assert len(tables) == len(raw_tables) and all(b.html for b in tables)
    named = {w.split(": ", 2)[1] for w in page.warnings if w.startswith("whole-page answer")}
    assert named == sample.repairs
    assert "layout" in STAGE_NAMES and page.timings is not None
    assert list(page.timings.stages)[:3] == ["render", "classify", "page_read"]


async def test_the_cookbook_box_lands_where_the_cookbook_drew_it(fault: Served) -> None:
    """Qwen2.5-VL's first block, (310, 94)-(658, 132) in its 1008x1540 input, is scaled onto
    the 1014x1532 page by the cookbook's own rule (original over resized)."""
    server, url = fault
    sample = next(s for s in IMAGE_SAMPLES if s.name == "qwen2.5-vl/1")
    server.reset(Fault(answer=raw(sample)))
    result = await _parse(_image(sample), _sample_options(url, sample, 1014 * 1532))
    first = result.pages[0].blocks[0].block.bbox
    sx, sy = 1014 / 1008, 1532 / 1540
    assert first == pytest.approx((310 * sx, 94 * sy, 658 * sx, 132 * sy))


async def test_the_request_carries_the_page_once_with_its_pixel_bounds(fault: Served) -> None:
    server, url = fault
    scan = EXAMPLES / "scan.png"
    server.reset(Fault(answer="garbage"))
    options = Options(
        engines={
            "qwen32b": _engine(
                url, "qwenvl-html", model="Qwen/Qwen3-VL-32B-Instruct", image_factor=32
            )
        },
        routes={**DEFAULT_ROUTES, "scan.page": ("qwen32b",)},
        verify={"enabled": False},
    )
    result = await _parse(scan, options)
    page = result.pages[0]
    assert page.decision is not None and page.decision.page_class == "scan"
    (body,) = server.requests
    assert body["mm_processor_kwargs"] == {
        "min_pixels": page.decision.min_pixels,
        "max_pixels": page.decision.max_pixels,
    }
    assert body["chat_template_kwargs"] == {"enable_thinking": False}
    system, user = body["messages"]
    assert system["role"] == "system" and "QwenVL Document Parser HTML" in system["content"]
    assert "[unclear]" in system["content"] and "back of the page" in system["content"]
    image, prompt = user["content"]
    assert prompt["text"] == "QwenVL HTML"
    data = base64.b64decode(image["image_url"]["url"].split(",", 1)[1])
    original = _pixels(scan)
    expected = smart_resize(
        original.height, original.width, 32, page.decision.min_pixels, page.decision.max_pixels
    )
    with Image.open(io.BytesIO(data)) as sent:
        assert (sent.height, sent.width) == expected
    assert body["max_tokens"] == 8192


async def test_an_unreadable_answer_goes_down_the_chain_and_is_kept(fault: Served) -> None:
    server, url = fault
    scan = EXAMPLES / "scan.png"
    garbage = "I cannot help with that. " + "x" * (RAW_KEPT + 100)
    server.reset(Fault(answer=garbage))
    options = Options(
        engines={"qwen32b": _engine(url, "dots-ocr")},
        routes={**DEFAULT_ROUTES, "scan.page": ("qwen32b", "ocr")},
        verify={"enabled": False},
    )
    result = await _parse(scan, options)
    page = result.pages[0]
    (record,) = page.page_answers
    assert not record.parsed and not record.used and record.raw_chars == len(garbage)
    assert record.raw.startswith(garbage[:RAW_KEPT]) and "[cut:" in record.raw
    assert len(server.requests) == 1
    warning = next(w for w in page.warnings if w.startswith("page route 'scan.page'"))
    assert "qwen32b (dots-ocr)" in warning and "block routes" in warning
    engines = {b.engine for b in page.blocks}
    assert engines == {"rapidocr"}
    assert "Meeting Minutes" in result.markdown
    saved = json.loads(json.dumps(document_json(result)))
    assert saved["pages"][0]["page_answers"][0]["raw"] == record.raw
    line = next(w for w in result.warnings if w.startswith("engine qwen32b (dots-ocr)"))
    assert "page 1 by the block routes" in line


async def test_a_failed_engine_falls_back_to_the_next_page_engine(fault: Served) -> None:
    server, url = fault
    sample = next(s for s in IMAGE_SAMPLES if s.name == "qwen2.5-vl/1")
    server.reset(Fault(answer=raw(sample)))
    options = _sample_options(url, sample, 1014 * 1532).model_copy(
        update={
            "engines": {
                "down": _engine("http://127.0.0.1:9/v1", sample.dialect, fallback_on_refusal=True),
                "qwen": _engine(url, sample.dialect),
            },
            "routes": {
                **DEFAULT_ROUTES,
                "scan.page": ("down", "qwen"),
                "dense.page": ("down", "qwen"),
            },
        }
    )
    result = await _parse(_image(sample), options)
    page = result.pages[0]
    down, used = page.page_answers
    assert down.cause == "unreachable" and not down.used and used.used
    assert {b.engine for b in page.blocks} == {"qwen"}
    line = next(w for w in result.warnings if w.startswith("engine down"))
    assert "qwen (whole page)" in line and result.status == "ok"


def test_a_served_engine_on_a_page_route_needs_a_dialect() -> None:
    options = Options(
        engines={"qwen32b": OpenAIEngineOptions(base_url="http://127.0.0.1:9/v1", model="m")},
        routes={**DEFAULT_ROUTES, "scan.page": ("qwen32b",)},
    )
    with pytest.raises(ConfigError, match=r"route 'scan.page': engine 'qwen32b' has no dialect"):
        make_context(options)
    unknown = {"qwen32b": _engine("http://127.0.0.1:9/v1", "html-ish")}
    with pytest.raises(ConfigError, match="unknown dialect 'html-ish'"):
        make_context(options.model_copy(update={"engines": unknown}))


async def test_whole_page_blocks_are_verified_against_the_embedded_ocr(fault: Served) -> None:
    """A Qwen3-VL answer (0-1000 grid) for examples/scan.png with the golden boxes and texts: a
    number misread is kept for review with both readings, a block on blank paper is flagged and
    not printed, a faithful block is accepted."""
    server, url = fault
    scan = EXAMPLES / "scan.png"
    golden = json.loads((Path(__file__).parents[1] / "golden/scan_png/expected.json").read_text())
    blocks = {b["order"]: b for b in golden["pages"][0]["blocks"]}
    image = _pixels(scan)
    width, height = image.size
    gray = np.asarray(image.convert("L"))
    blank = (0.1 * width, 0.9 * height, 0.9 * width, 0.95 * height)
    y0, y1, x0, x1 = (int(v) for v in (blank[1], blank[3], blank[0], blank[2]))
    assert gray[y0:y1, x0:x1].min() > 200  # paper, read independently of the code

    def grid(box: list[float] | tuple[float, ...]) -> str:
        x0, y0, x1, y1 = box
        return " ".join(
            str(round(v))
            for v in (x0 * 1000 / width, y0 * 1000 / height, x1 * 1000 / width, y1 * 1000 / height)
        )

    misread = blocks[2]["text"].replace("14 March", "41 March")
    texts = {order: block["text"] for order, block in blocks.items()} | {2: misread}
    body = [f'<h1 data-bbox="{grid(blocks[0]["bbox"])}">{texts[0]}</h1>']
    body += [f'<p data-bbox="{grid(blocks[n]["bbox"])}">{texts[n]}</p>' for n in range(1, 7)]
    body.append(f'<p data-bbox="{grid(blank)}">Signed: the invented secretary</p>')
    answer = "<html><body>\n" + "\n".join(body) + "\n</body></html>"
    server.reset(Fault(answer=answer))
    options = Options(
        engines={
            "qwen32b": _engine(
                url, "qwenvl-html", model="Qwen/Qwen3-VL-32B-Instruct", image_factor=32
            )
        },
        routes={**DEFAULT_ROUTES, "scan.page": ("qwen32b",)},
    )
    result = await _parse(scan, options)
    page = result.pages[0]
    faithful, text, invented = page.blocks[1], page.blocks[2], page.blocks[-1]
    assert len(page.blocks) == 8
    assert faithful.text == blocks[1]["text"] and faithful.verdict.outcome == "accept"
    assert page.blocks[0].block.kind == "title" and page.blocks[0].level == 1
    assert text.text == misread and text.verdict.outcome == "review"
    checks = {f.check for f in text.verdict.findings}
    assert "critical" in checks and "reference" in checks
    other = next(f.message for f in text.verdict.findings if f.check == "reference")
    assert "14 March" in other
    assert invented.text == "" and invented.verdict.outcome == "review"
    assert "invented secretary" in invented.verdict.findings[0].message
    assert "invented secretary" not in result.markdown and "41 March" in result.markdown
    assert len([r for r in server.requests]) == 1
