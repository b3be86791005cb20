"""The verifier end to end: a scripted faulty VLM engine in process, over real fixture documents.

This drives the verifier with faults that an OpenAI-compatible engine guards against before the
verifier sees them (an answer cut at max_tokens, a ``<think>`` block), and with a route that has
no fallback engine (so a scan's fault ends in review); test_verify_fault_server.py injects the
content faults over real HTTP.

The fake engine answers what a good VLM would (the block's text, lightly restyled as
Markdown) and injects the faults users report (loops, a leaked ``<think>``, 得 read as 應, a
dropped article number, romanized Korean, an empty or truncated answer, a table with an
invented column). Every fault must be caught and acted on, the final Markdown must match the
text layer, and clean answers must all be accepted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pagereader.checks.critical import critical_patterns, critical_tokens
from pagereader.config.options import OpenAIEngineOptions, Options
from pagereader.engines import registry
from pagereader.engines.base import BlockRequest
from pagereader.engines.registry import build_engines
from pagereader.engines.textlayer import TextLayerEngine
from pagereader.pipeline import aparse
from pagereader.render.review import review_markdown, write_review
from pagereader.runtime import Runtime
from pagereader.text.chars import char_consistency, normalize
from pagereader.types import DocumentResult, Recognition

from fault_server import romanize

Fault = Callable[[str], tuple[str, str | None]]


def _loop(text: str) -> tuple[str, str | None]:
    return text + "預約後不使用者，" * 60, "length"


def _think(text: str) -> tuple[str, str | None]:
    return "<think>\nThe user wants the text of this block. It is a legal clause.\n" + text, None


def _extra_column(html: str) -> tuple[str, str | None]:
    html = html.replace("</tr>", "<td>n/a 999</td></tr>")
    return html, None


# (document, text the block starts with) -> (fault, expected check, persists after a retry)
FAULTS: dict[tuple[str, str], tuple[Fault, str, bool]] = {
    ("legal.pdf", "Article 1 (Purpose)"): (_think, "reasoning", False),
    ("legal.pdf", "Article 2 (Obligations"): (
        lambda t: (t.replace("Article 2 ", ""), None),
        "critical",
        True,
    ),
    ("legal.pdf", "Section 2.3"): (lambda t: (t.replace("must", "may"), None), "critical", True),
    ("legal.pdf", "第三條"): (lambda t: (t[: len(t) // 2], "length"), "agreement", True),
    ("legal.pdf", "第四條"): (lambda t: (t.replace("住戶得", "住戶應"), None), "critical", True),
    ("legal.pdf", "第五條"): (_loop, "repetition", False),
    ("legal.pdf", "제3조"): (lambda t: (romanize(t), None), "script", True),
    ("legal.pdf", "제5조"): (lambda t: ("", None), "empty", False),
    ("table.pdf", "<table"): (_extra_column, "table", True),
}


class FakeVLM:
    """A VLM that answers like a good one, except where ``faults`` says otherwise."""

    name = "vlm"
    max_concurrency = 4
    embedded = False
    pixel_blind = False

    def __init__(self, document: str, engines: dict[str, Any]) -> None:
        self.document = document
        self.engines = engines
        self.first_pixels: dict[tuple[int, int], int] = {}
        self.calls: list[tuple[int, int, int]] = []

    async def _clean(self, request: BlockRequest) -> Recognition:
        if request.task == "table":
            grid: Recognition = await self.engines["grid"].recognize(request)
            return grid
        if request.page_lines:
            answer = await TextLayerEngine().recognize(request)
        else:
            answer = await self.engines["ocr"].recognize(request)
        text = answer.text
        if request.block.kind == "title":
            text = "## " + text
        return Recognition(text=text, engine=self.name)

    async def recognize(self, request: BlockRequest) -> Recognition:
        self.calls.append((request.page, request.block.order, request.max_pixels))
        clean = await self._clean(request)
        body = clean.html if request.task == "table" and clean.html else clean.text
        fault = self.fault_for(request.page, body)
        first = self.first_pixels.setdefault(
            (request.page, request.block.order), request.max_pixels
        )
        retried = request.max_pixels > first
        if fault is None or (retried and not fault[2]):
            return Recognition(text=body, html=clean.html, engine=self.name)
        text, finish = fault[0](body)
        html = text if request.task == "table" else None
        return Recognition(text=text, html=html, engine=self.name, finish_reason=finish)

    def fault_for(self, page: int, body: str) -> tuple[Fault, str, bool] | None:
        for (document, start), fault in FAULTS.items():
            if document == self.document and body.lstrip("# ").startswith(start):
                return fault
        return None

    async def aclose(self) -> None:
        return None


ROUTES = {"*.*": ["vlm", "textlayer"], "*.table": ["vlm", "grid"], "*.figure": ["ocr"]}


def _options(routes: dict[str, list[str]]) -> Options:
    vlm = OpenAIEngineOptions(base_url="http://127.0.0.1:9/v1", model="fake")
    return Options(engines={"vlm": vlm}, routes=routes)


def _run(path: Path, routes: dict[str, list[str]]) -> tuple[DocumentResult, FakeVLM]:
    options = _options(routes)
    engines: dict[str, Any] = dict(build_engines(Options()))
    fake = FakeVLM(path.name, engines)
    engines["vlm"] = fake
    ctx = Runtime(options=options, capabilities=registry, engines=engines)
    return asyncio.run(aparse(path, ctx=ctx)), fake


def _expected(path: Path, page: int, text: str) -> str | None:
    for (document, start), (_, check, _) in FAULTS.items():
        if document == path.name and text.lstrip("# ").startswith(start):
            return check
    return None


@pytest.fixture(scope="module")
def runs(fixtures: Any) -> dict[str, tuple[DocumentResult, DocumentResult, FakeVLM]]:
    """Each digital fixture parsed twice: the embedded path, and the faulty VLM route."""
    out = {}
    for path in (fixtures.legal_pdf, fixtures.table_pdf):
        embedded = asyncio.run(aparse(path))
        faulty, fake = _run(path, ROUTES)
        out[path.name] = (embedded, faulty, fake)
    return out


def test_embedded_path_has_no_false_alarms(runs: dict[str, Any]) -> None:
    for embedded, _, _ in runs.values():
        actions = [b.verdict.outcome for p in embedded.pages for b in p.blocks]
        assert actions and set(actions) == {"accept"}


def test_every_injected_fault_is_caught_and_acted_on(runs: dict[str, Any]) -> None:
    injected = caught = false_alarms = clean = 0
    for name, (embedded, faulty, _) in runs.items():
        first = {(p.index, b.block.order): b.text for p in embedded.pages for b in p.blocks}
        for page in faulty.pages:
            for block in page.blocks:
                check = _expected(Path(name), page.index, first[(page.index, block.block.order)])
                action = block.verdict.outcome
                found = {f.check for f in block.verdict.findings}
                if check is None:
                    clean += 1
                    false_alarms += action != "accept"
                    continue
                injected += 1
                caught += action != "accept" and check in found
    assert injected == len(FAULTS)
    assert caught / injected == 1.0
    assert clean == 18 and false_alarms == 0


def test_final_markdown_matches_the_text_layer(runs: dict[str, Any]) -> None:
    patterns = critical_patterns()
    for embedded, faulty, _ in runs.values():
        for want, got in zip(embedded.pages, faulty.pages, strict=True):
            score = char_consistency(normalize(got.markdown), normalize(want.markdown))
            assert score >= 0.99, (want.index, score)
            assert critical_tokens(got.markdown, patterns) == critical_tokens(
                want.markdown, patterns
            )


def test_remedies_and_attempts_are_recorded(runs: dict[str, Any], tmp_path: Path) -> None:
    _, legal, fake = runs["legal.pdf"]
    blocks = {b.text[:6]: b for p in legal.pages for b in p.blocks}
    think = next(b for p in legal.pages for b in p.blocks if b.text.startswith("Article 1"))
    assert think.verdict.outcome == "retry"
    assert [a.engine for a in think.attempts] == ["vlm", "vlm"]
    assert [c for c in fake.calls if c[:2] == (1, think.block.order)] == [
        (1, think.block.order, 1_003_520),
        (1, think.block.order, 2_007_040),
    ]
    modal = blocks["第四條　住戶"]
    assert modal.verdict.outcome == "fallback" and modal.engine == "textlayer"
    assert "得->應" in " ".join(f.message for f in modal.verdict.findings)
    loop = blocks["第五條　住戶"]
    assert loop.verdict.outcome == "retry" and "預約後不使用者" not in loop.text
    _, table, _ = runs["table.pdf"]
    grid = next(b for b in table.pages[0].blocks if b.block.kind == "table")
    assert grid.verdict.outcome == "escalate" and grid.engine == "grid"
    assert [a.engine for a in grid.attempts] == ["vlm", "vlm", "grid"]
    assert "n/a 999" not in (grid.html or "")
    review = write_review(tmp_path, legal).read_text(encoding="utf-8")
    assert "0 of 25 blocks need a look; 8 were corrected automatically." in review
    assert "| [2](pages/002.png) | 5 | text | fallback | textlayer |" in review


def test_scan_with_ocr_reference_retries_then_flags_for_review(
    fixtures: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a scan the embedded OCR is the reference: untrusted, so a persistent modal swap is
    retried with more pixels and then kept for a person to review, never silently replaced."""
    path = fixtures.scan_png
    monkeypatch.setitem(
        FAULTS,
        (path.name, "Section 2.2"),
        (lambda t: (t.replace("shall", "may"), None), "critical", True),
    )
    result, _ = _run(path, {"*.*": ["vlm"]})
    flagged = [b for p in result.pages for b in p.blocks if b.verdict.outcome != "accept"]
    # the one page's header line is flagged too: nothing can repeat it (document/running.py)
    edge = [b for b in flagged if b.block.kind in ("header", "footer")]
    assert [f.check for b in edge for f in b.verdict.findings] == ["running"]
    flagged = [b for b in flagged if b not in edge]
    assert [b.verdict.outcome for b in flagged] == ["review"]
    block = flagged[0]
    messages = " ".join(f.message for f in block.verdict.findings)
    assert "critical tokens differ from the ocr: shall->may" in messages
    assert [a.engine for a in block.attempts] == ["vlm", "vlm"]
    review = review_markdown(result)
    assert f"{1 + len(edge)} of 9 blocks need a look" in review
    assert "[![page 1](pages/001.png)](pages/001.png)" in review
    assert "shall->may" in review


def test_verifier_off_changes_nothing(fixtures: Any) -> None:
    options = _options(ROUTES)
    options = options.model_copy(
        update={"verify": options.verify.model_copy(update={"enabled": False})}
    )
    engines: dict[str, Any] = dict(build_engines(Options()))
    engines["vlm"] = FakeVLM(fixtures.legal_pdf.name, engines)
    result = asyncio.run(
        aparse(
            fixtures.legal_pdf, ctx=Runtime(options=options, capabilities=registry, engines=engines)
        )
    )
    assert {b.verdict.outcome for p in result.pages for b in p.blocks} == {"accept"}
    assert any("住戶應預約" in b.text for p in result.pages for b in p.blocks)
