"""An embedded engine added through the registry alone: routes name it, runs build it, and the
shipped deck's text blocks come out as it read them (docs/development.md, "Adding an embedded
engine")."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from pagereader.config.options import Options
from pagereader.engines import registry
from pagereader.engines.base import BlockRequest, EmbeddedEngine
from pagereader.engines.registry import EngineEntry
from pagereader.pipeline import aparse, make_context
from pagereader.types import DocumentResult, Recognition

DECK = Path(__file__).parents[2] / "examples" / "deck.pdf"


class ShoutingEngine(EmbeddedEngine):
    """The text layer inside the block, upper-cased."""

    name = "shouting"

    def __init__(self, options: object | None = None) -> None:
        self.layer = registry.text_layer()

    async def recognize(self, request: BlockRequest) -> Recognition:
        answer = await self.layer.recognize(request)
        return answer.model_copy(update={"text": answer.text.upper(), "engine": self.name})

    async def aclose(self) -> None:
        return None


@pytest.fixture
def shouting() -> Iterator[None]:
    registry.register(EngineEntry(ShoutingEngine, lambda _: ShoutingEngine()))
    yield
    registry.unregister(ShoutingEngine.name)


def _parse(options: Options) -> DocumentResult:
    return asyncio.run(aparse(DECK, ctx=make_context(options)))


def test_a_registered_engine_reads_the_blocks_routed_to_it(shouting: None) -> None:
    assert "shouting" in registry.builtin_engine_names()
    plain = _parse(Options())
    routes = {**Options().routes, "digital.text": ("shouting", "textlayer")}
    loud = _parse(Options(routes=routes))
    pairs = [
        (before, after)
        for page_before, page_after in zip(plain.pages, loud.pages, strict=True)
        for before, after in zip(page_before.blocks, page_after.blocks, strict=True)
    ]
    routed = [(b, a) for b, a in pairs if a.engine == "shouting"]
    assert len(routed) >= 5
    for before, after in routed:
        assert before.block.kind == after.block.kind == "text"
        assert before.engine == "textlayer"
        assert after.text == before.text.upper()
        assert after.verdict.outcome == "accept"  # its own signal: no reference to check
    # blocks of other kinds keep their engines and their text
    others = [(b, a) for b, a in pairs if a.block.kind != "text"]
    assert others and all(b.text == a.text and b.engine == a.engine for b, a in others)
    assert {p.decision.text_engine for p in loud.pages if p.decision} == {"shouting"}


def test_without_the_entry_a_route_naming_it_is_refused() -> None:
    from pagereader.errors import ConfigError

    with pytest.raises(ConfigError, match="names unknown engines \\['shouting'\\]"):
        make_context(Options(routes={"digital.text": ("shouting",)}))
