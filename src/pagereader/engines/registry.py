"""Engines by name: built-ins need no configuration, configured ones are built from their
options type. Adding an engine touches its own module and ``BUILTIN_ENGINES`` or
``ENGINE_TYPES`` here, nothing else; an engine's name and facts are attributes of its class."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from pydantic import BaseModel

from pagereader.config.options import (
    OpenAIEngineOptions,
    Options,
    RapidOCREngineOptions,
    TesseractEngineOptions,
    TextLayerEngineOptions,
)
from pagereader.engines.auto import AutoOCREngine
from pagereader.engines.base import Engine
from pagereader.engines.breaker import CircuitBreaker
from pagereader.engines.grid import TableGridEngine
from pagereader.engines.rapidocr import RapidOCREngine
from pagereader.engines.tesseract import TesseractEngine
from pagereader.engines.textlayer import TextLayerEngine
from pagereader.errors import ConfigError


class _Named(Protocol):
    name: str


BUILTIN_ENGINES: tuple[type[_Named], ...] = (
    TextLayerEngine,
    RapidOCREngine,
    TesseractEngine,
    AutoOCREngine,
    TableGridEngine,
)
"""Engines every run has, under their class's ``name``."""


def builtin_engine_names() -> tuple[str, ...]:
    """The route names of the built-in engines."""
    return tuple(cls.name for cls in BUILTIN_ENGINES)


ENGINE_TYPES: dict[type[BaseModel], Callable[[Any], Engine]] = {
    TextLayerEngineOptions: TextLayerEngine,
    RapidOCREngineOptions: RapidOCREngine,
    TesseractEngineOptions: TesseractEngine,
}


def _openai_engines(options: Options) -> dict[str, Engine]:
    """Served endpoints; in router mode all of them talk to the router. One breaker per URL.
    The OpenAI client library is imported only when one is configured (a third of a second
    of every start otherwise)."""
    if not any(isinstance(o, OpenAIEngineOptions) for o in options.engines.values()):
        return {}
    from pagereader.engines.openai_api import OpenAIEngine

    breakers: dict[str, CircuitBreaker] = {}
    engines: dict[str, Engine] = {}
    for name, engine_options in options.engines.items():
        if not isinstance(engine_options, OpenAIEngineOptions):
            continue
        url = options.router.base_url if options.router else engine_options.base_url
        breaker = breakers.setdefault(url, CircuitBreaker())
        engines[name] = OpenAIEngine(
            engine_options, name=name, router=options.router, breaker=breaker
        )
    return engines


def build_engines(options: Options) -> dict[str, Engine]:
    """Every engine the routes may name: the built-ins, then the configured ones."""
    configured = options.engines
    rapid = next(
        (o for o in configured.values() if isinstance(o, RapidOCREngineOptions)), options.ocr
    )
    tess = next((o for o in configured.values() if isinstance(o, TesseractEngineOptions)), None)
    builtins: list[Engine] = [
        TextLayerEngine(),
        RapidOCREngine(rapid),
        TesseractEngine(tess),
        AutoOCREngine(rapid, tess),
        TableGridEngine(rapid),
    ]
    engines: dict[str, Engine] = {engine.name: engine for engine in builtins}
    served = _openai_engines(options)
    engines.update(served)
    for name, engine_options in configured.items():
        if name in served:
            continue
        factory = ENGINE_TYPES.get(type(engine_options))
        if factory is None:
            kinds = sorted(
                {str(t.model_fields["kind"].default) for t in ENGINE_TYPES}
                | {str(OpenAIEngineOptions.model_fields["kind"].default)}
            )
            raise ConfigError(
                f"engine {name!r}: kind {engine_options.kind!r} is not available in this install",
                hint=f"known kinds: {', '.join(kinds)}",
            )
        engines[name] = factory(engine_options)
    return engines
