"""Engines by name: built-ins need no configuration, configured ones are built from their
options type. Adding an engine touches its own module and ``ENGINE_TYPES`` here, nothing else."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pagereader.engines.auto import AutoOCREngine
from pagereader.engines.base import Engine
from pagereader.engines.breaker import CircuitBreaker
from pagereader.engines.openai_api import OpenAIEngine
from pagereader.engines.rapidocr import RapidOCREngine
from pagereader.engines.table import TableGridEngine
from pagereader.engines.tesseract import TesseractEngine
from pagereader.engines.textlayer import TextLayerEngine
from pagereader.errors import ConfigError
from pagereader.options import (
    OpenAIEngineOptions,
    Options,
    RapidOCREngineOptions,
    TesseractEngineOptions,
    TextLayerEngineOptions,
)

ENGINE_TYPES: dict[type, Callable[[Any], Engine]] = {
    TextLayerEngineOptions: TextLayerEngine,
    RapidOCREngineOptions: RapidOCREngine,
    TesseractEngineOptions: TesseractEngine,
}


def _openai_engines(options: Options) -> dict[str, Engine]:
    """Served endpoints; in router mode all of them talk to the router. One breaker per URL."""
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


def register_engine(options_type: type, factory: Callable[[Any], Engine]) -> None:
    """Make an options type buildable (used by engine modules with optional dependencies)."""
    ENGINE_TYPES[options_type] = factory


def build_engines(options: Options) -> dict[str, Engine]:
    """Every engine the routes may name: the built-ins, then the configured ones."""
    configured = options.engines
    rapid = next((o for o in configured.values() if isinstance(o, RapidOCREngineOptions)), None)
    tess = next((o for o in configured.values() if isinstance(o, TesseractEngineOptions)), None)
    engines: dict[str, Engine] = {
        "textlayer": TextLayerEngine(),
        "rapidocr": RapidOCREngine(rapid),
        "tesseract": TesseractEngine(tess),
        "ocr": AutoOCREngine(rapid, tess),
    }
    engines["grid"] = TableGridEngine(rapid)
    served = _openai_engines(options)
    engines.update(served)
    for name, engine_options in configured.items():
        if name in served:
            continue
        factory = ENGINE_TYPES.get(type(engine_options))
        if factory is None:
            raise ConfigError(
                f"engine {name!r}: kind {engine_options.kind!r} is not available in this install"
            )
        engines[name] = factory(engine_options)
    return engines
