"""The verifier over real HTTP: the scripted fault server corrupts a VLM's answers on the fixtures.

The openai engine talks to the fault server on loopback. The server answers correctly by
default: an oracle on the client side records, for each crop it sends, the correct text (the
text layer on digital pages, the ruled-table grid for tables, the embedded OCR on scans, which
is also the verifier's reference there), and the server looks it up by the crop's key. Content
faults corrupt chosen blocks: a modal word swapped (得->應, must->may, shall->may), an article
number dropped (第二條, Article 2, 제2조), Korean answered in romanization, a table with an
invented column, an empty answer, a loop that ends with "stop", a reasoning preamble. Every
injected fault must be caught and acted on, the digital pages' final Markdown must match the
text layer parse, and clean answers must all be accepted.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pagereader.checks.critical import critical_patterns, critical_tokens
from pagereader.config.options import OpenAIEngineOptions, Options
from pagereader.engine_server.server import serve_in_thread
from pagereader.engines.base import BlockRequest, Engine
from pagereader.engines.openai_api import image_data_url, upload_data_url
from pagereader.engines.textlayer import TextLayerEngine
from pagereader.errors import PagereaderError
from pagereader.pipeline import aparse, make_context
from pagereader.text.chars import char_consistency, normalize
from pagereader.types import BlockResult, DocumentResult, Recognition

from fault_server import (
    ContentFault,
    Fault,
    FaultServer,
    Injection,
    drop,
    empty,
    extra_column,
    image_key,
    preamble,
    repeat,
    request_image_key,
    romanize,
    swap,
)
from fixtures import Fixtures

ROUTES = {
    "*.*": ["vlm", "textlayer", "ocr"],
    "*.table": ["vlm", "grid", "ocr"],
    "*.figure": ["ocr"],
}

# document -> (fault, the check that must catch it)
FAULTS: dict[str, tuple[tuple[ContentFault, str], ...]] = {
    "legal.pdf": (
        (ContentFault("preamble", "Article 1 (Purpose)", preamble, persistent=False), "reasoning"),
        (ContentFault("drop-article", "Article 2 (Obligations", drop("Article 2")), "critical"),
        (ContentFault("modal", "Section 2.3", swap("must", "may")), "critical"),
        (ContentFault("drop-article", "第二條", drop("第二條")), "critical"),
        (ContentFault("modal", "第四條", swap("住戶得", "住戶應")), "critical"),
        (ContentFault("loop", "第五條", repeat, persistent=False), "repetition"),
        (ContentFault("drop-article", "제2조", drop("제2조")), "critical"),
        (ContentFault("romanize", "제3조", romanize), "script"),
        (ContentFault("empty", "제5조", empty, persistent=False), "empty"),
    ),
    "table.pdf": ((ContentFault("extra-column", "<table", extra_column), "table"),),
    "legal.scan.pdf": (
        (ContentFault("modal", "Section 2.2", swap("shall", "may")), "critical"),
        (ContentFault("empty", "第三條", empty, persistent=False), "empty"),
        (ContentFault("romanize", "제4조", romanize), "script"),
    ),
}


@dataclass
class Oracle:
    """The correct answer of every crop the VLM is asked about, recorded as it goes out."""

    engines: Mapping[str, Engine]
    answers: dict[str, str] = field(default_factory=dict)
    blocks: dict[str, tuple[int, int]] = field(default_factory=dict)
    _memo: dict[tuple[str, str], Recognition] = field(default_factory=dict)

    async def clean(self, request: BlockRequest) -> str:
        try:
            if request.task == "table":
                table = await self.engines["grid"].recognize(request)
                return table.html or table.text
            if request.page_lines:
                return (await TextLayerEngine().recognize(request)).text
            return (await self.engines["ocr"].recognize(request)).text
        except PagereaderError:
            return ""

    def truth(self, body: dict[str, Any]) -> str | None:
        return self.answers.get(request_image_key(body) or "")


class Tap:
    """The real openai engine, with the oracle told the correct answer of each crop first."""

    def __init__(self, inner: Engine, oracle: Oracle) -> None:
        self.inner, self.oracle, self.name = inner, oracle, "vlm"
        self.max_concurrency = inner.max_concurrency
        self.embedded, self.pixel_blind = inner.embedded, inner.pixel_blind

    async def recognize(self, request: BlockRequest) -> Recognition:
        factor = OpenAIEngineOptions.model_fields["image_factor"].default
        url = upload_data_url(request.image, factor, request.min_pixels, request.max_pixels)
        key = image_key(url)
        if key not in self.oracle.answers:
            self.oracle.answers[key] = await self.oracle.clean(request)
            self.oracle.blocks[key] = (request.page, request.block.order)
        return await self.inner.recognize(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


class SharedOCR:
    """The embedded OCR, read once per crop: the oracle and the verifier's reference on scans
    ask the same question, and OCR on two cores is the slow part of this test."""

    def __init__(self, inner: Engine, memo: dict[tuple[str, str], Recognition]) -> None:
        self.inner, self.memo, self.name = inner, memo, inner.name
        self.max_concurrency = inner.max_concurrency
        self.embedded, self.pixel_blind = inner.embedded, inner.pixel_blind

    async def recognize(self, request: BlockRequest) -> Recognition:
        key = (image_key(image_data_url(request.image)), request.task)
        if key not in self.memo:
            self.memo[key] = await self.inner.recognize(request)
        return self.memo[key]

    async def aclose(self) -> None:
        await self.inner.aclose()


@dataclass
class Run:
    embedded: DocumentResult | None
    served: DocumentResult
    injected: list[Injection]
    oracle: Oracle


async def _served(path: Path, server: FaultServer, url: str) -> Run:
    options = Options(
        engines={"vlm": OpenAIEngineOptions(base_url=url, model="fault", timeout_s=10.0)},
        routes=ROUTES,
    )
    ctx = make_context(options)
    oracle = Oracle({})
    engines = {
        **ctx.engines,
        "ocr": SharedOCR(ctx.engines["ocr"], oracle._memo),
        "vlm": Tap(ctx.engines["vlm"], oracle),
    }
    ctx = dataclasses.replace(ctx, engines=engines)
    oracle.engines = ctx.engines
    server.reset(Fault(truth=oracle.truth, content=tuple(f for f, _ in FAULTS[path.name])))
    try:
        result = await aparse(path, ctx=ctx)
    finally:
        await asyncio.gather(*(engine.aclose() for engine in ctx.engines.values()))
    return Run(None, result, list(server.injected), oracle)


@pytest.fixture(scope="module")
def runs(fixtures: Fixtures) -> Iterator[dict[str, Run]]:
    """Each fixture parsed over the fault server; digital ones also on the embedded path."""
    server = FaultServer()
    out: dict[str, Run] = {}
    with serve_in_thread(server.app()) as url:
        for path in (fixtures.legal_pdf, fixtures.table_pdf, fixtures.scan_pdf):
            run = asyncio.run(_served(path, server, url))
            if path != fixtures.scan_pdf:
                run.embedded = asyncio.run(aparse(path))
            out[path.name] = run
    yield out


def _block(result: DocumentResult, where: tuple[int, int]) -> BlockResult:
    page, order = where
    return next(
        b for p in result.pages if p.index == page for b in p.blocks if b.block.order == order
    )


def test_every_injected_fault_is_caught_and_acted_on(runs: dict[str, Run]) -> None:
    injected = 0
    for name, run in runs.items():
        expected = {fault.match: check for fault, check in FAULTS[name]}
        # by block: a retry with more pixels uploads a larger crop, a request of its own
        faulted = {run.oracle.blocks[i.key]: i.match for i in run.injected}
        assert sorted(faulted.values()) == sorted(expected), name
        for where, match in faulted.items():
            block = _block(run.served, where)
            injected += 1
            found = {f.check for f in block.verdict.findings}
            assert block.verdict.outcome != "accept" and expected[match] in found, (
                name,
                match,
                block.verdict,
            )
    assert injected == sum(len(f) for f in FAULTS.values()) == 13


def test_clean_answers_are_accepted(runs: dict[str, Run]) -> None:
    clean = false_alarms = 0
    for run in runs.values():
        faulted = {run.oracle.blocks[i.key] for i in run.injected}
        for page in run.served.pages:
            for block in page.blocks:
                if (page.index, block.block.order) in faulted:
                    continue
                assert block.engine == "vlm" or block.block.kind == "figure", block
                clean += 1
                false_alarms += block.verdict.outcome != "accept"
    assert clean >= 20 and false_alarms == 0


def test_digital_markdown_matches_the_text_layer_parse(runs: dict[str, Run]) -> None:
    patterns = critical_patterns()
    for run in runs.values():
        if run.embedded is None:
            continue
        for want, got in zip(run.embedded.pages, run.served.pages, strict=True):
            score = char_consistency(normalize(got.markdown), normalize(want.markdown))
            assert score >= 0.99, (want.index, score)
            assert critical_tokens(got.markdown, patterns) == critical_tokens(
                want.markdown, patterns
            )


def test_remedies_follow_the_reference(runs: dict[str, Run]) -> None:
    """Digital pages: persistent faults end in the text layer or the grid, transient ones are
    read right on a retry with more pixels. Scans: the OCR reference is not trusted enough to
    replace an answer, so a persistent modal swap is retried, then the route's OCR answers."""
    final: dict[tuple[str, str], BlockResult] = {}
    for name, run in runs.items():
        for injection in run.injected:
            final[(name, injection.match)] = _block(run.served, run.oracle.blocks[injection.key])

    def outcome(name: str, match: str) -> tuple[str, str, list[str]]:
        block = final[(name, match)]
        return block.verdict.outcome, block.engine, [a.engine for a in block.attempts]

    assert outcome("legal.pdf", "第四條") == ("fallback", "textlayer", ["vlm"])
    assert outcome("legal.pdf", "Article 2 (Obligations") == ("fallback", "textlayer", ["vlm"])
    assert outcome("legal.pdf", "제3조") == ("fallback", "textlayer", ["vlm"])
    for match in ("Article 1 (Purpose)", "第五條", "제5조"):
        assert outcome("legal.pdf", match) == ("retry", "vlm", ["vlm", "vlm"]), match
    assert outcome("table.pdf", "<table") == ("escalate", "grid", ["vlm", "vlm", "grid"])
    assert "n/a 999" not in (final[("table.pdf", "<table")].html or "")
    scan = final[("legal.scan.pdf", "Section 2.2")]
    assert outcome("legal.scan.pdf", "Section 2.2")[:2] == ("escalate", "rapidocr")
    assert "shall->may" in " ".join(f.message for f in scan.verdict.findings)
    assert "shall ensure" in scan.text and "may ensure" not in scan.text
    assert outcome("legal.scan.pdf", "第三條") == ("retry", "vlm", ["vlm", "vlm"])
    assert outcome("legal.scan.pdf", "제4조")[:2] == ("escalate", "tesseract")
    assert "제4조" in final[("legal.scan.pdf", "제4조")].text
