"""The page context pass: JSON answers parsed, failures kept off the page's status."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from pagereader.config.options import Options
from pagereader.engines.base import BlockRequest
from pagereader.errors import EngineError
from pagereader.pipeline import aparse, make_context
from pagereader.stages.context import parse_context
from pagereader.types import PageContext, Recognition

DECK = Path(__file__).resolve().parents[3] / "examples" / "deck.pdf"


def test_parse_context_reads_json_in_fences_and_falls_back_to_text() -> None:
    fenced = '```json\n{"title": "年度成果", "summary": "全年完成十二萬頁。"}\n```'
    assert parse_context(fenced) == ("年度成果", "全年完成十二萬頁。")
    assert parse_context("Just a sentence.") == ("", "Just a sentence.")
    assert parse_context('{"title": "T"') == ("", '{"title": "T"')


class TitleEngine:
    """Answers the context task with the page's first text-layer line as its title."""

    name = "general"
    max_concurrency = 1
    embedded = False
    pixel_blind = False

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.requests: list[BlockRequest] = []

    async def recognize(self, request: BlockRequest) -> Recognition:
        self.requests.append(request)
        if self.fail:
            raise EngineError("endpoint down", file=request.file, page=request.page)
        first = request.page_lines[0].text if request.page_lines else ""
        return Recognition(text=f'{{"title": "{first}", "summary": "s"}}', engine=self.name)

    async def aclose(self) -> None:
        return None


def _run(engine: TitleEngine) -> list[PageContext | None]:
    options = Options.model_validate({"context": {"engine": "ocr"}, "pages": (1, 2)})
    ctx = make_context(options)
    ctx = dataclasses.replace(ctx, engines={**ctx.engines, "ocr": engine})
    result = asyncio.run(aparse(DECK, ctx=ctx))
    assert result.status == "ok"
    return [page.context for page in result.pages]


def test_context_pass_asks_once_per_page_with_the_whole_page() -> None:
    engine = TitleEngine()
    contexts = _run(engine)
    assert [r.task for r in engine.requests] == ["context", "context"]
    assert all(r.image.size == r.page_image.size for r in engine.requests)
    assert all(c is not None and c.summary == "s" and c.engine == "general" for c in contexts)


def test_context_failure_is_recorded_and_the_page_stays_ok() -> None:
    contexts = _run(TitleEngine(fail=True))
    assert all(c is not None and c.error == "endpoint down" for c in contexts)
