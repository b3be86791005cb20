"""Engines by name, and the embedded engines by what they can do.

One table, ``BUILTINS``, lists the engines every run has: each entry names the engine's class
(its route name and facts are attributes of the class), how a run builds it from the options,
and the options type an ``[engines.NAME]`` section of its kind has. The built-in names, the
configured kinds and the engines of a run all come from that table; served engines (``openai``)
are built from their options. Adding an embedded engine touches its own module and one entry
here (or one :func:`register` call), nothing else.

The decision layer never names an engine: it asks for a capability (a line detector, the reader
of a script, the text layer) through the functions below, which the Runtime hands to the stages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

from pagereader.config.options import (
    PAGE_ROUTE,
    OpenAIEngineOptions,
    Options,
    RapidOCREngineOptions,
    TesseractEngineOptions,
    TextLayerEngineOptions,
)
from pagereader.engines.auto import AutoOCREngine, embedded_engine_for
from pagereader.engines.base import Engine
from pagereader.engines.breaker import CircuitBreaker
from pagereader.engines.grid import TableGridEngine
from pagereader.engines.page_frame import page_frame
from pagereader.engines.rapidocr import RapidOCREngine, RapidOCRLines
from pagereader.engines.tesseract import LANGS_BY_SCRIPT, TesseractEngine, TesseractLineReader
from pagereader.engines.textlayer import TextLayerEngine
from pagereader.errors import ConfigError
from pagereader.protocols import LineDetector, LineReader
from pagereader.types import Script

if TYPE_CHECKING:  # the dialects are imported by a served page engine's run, not every run
    from pagereader.engines.dialects import PageAnswer as PageAnswer


class EngineClass(Protocol):
    """An engine's class: its route name, and a constructor taking its options."""

    name: str

    def __call__(self, options: Any, /) -> Engine: ...


@dataclass(frozen=True)
class EngineEntry:
    """One built-in engine: its class, how a run builds it from the whole options, and the
    options type of a configured engine of its kind (None: not configurable)."""

    engine: EngineClass
    build: Callable[[Options], Engine]
    options_type: type[BaseModel] | None = None

    @property
    def name(self) -> str:
        """The route name, from the engine's class."""
        return self.engine.name


def _rapid(options: Options) -> RapidOCREngineOptions:
    """The embedded OCR's options: a configured rapidocr engine's, or ``[ocr]``."""
    configured = options.engines.values()
    return next((o for o in configured if isinstance(o, RapidOCREngineOptions)), options.ocr)


def _tesseract(options: Options) -> TesseractEngineOptions | None:
    configured = options.engines.values()
    return next((o for o in configured if isinstance(o, TesseractEngineOptions)), None)


BUILTINS: dict[str, EngineEntry] = {
    entry.name: entry
    for entry in (
        EngineEntry(TextLayerEngine, lambda _: TextLayerEngine(), TextLayerEngineOptions),
        EngineEntry(RapidOCREngine, lambda o: RapidOCREngine(_rapid(o)), RapidOCREngineOptions),
        EngineEntry(
            TesseractEngine, lambda o: TesseractEngine(_tesseract(o)), TesseractEngineOptions
        ),
        EngineEntry(AutoOCREngine, lambda o: AutoOCREngine(_rapid(o), _tesseract(o))),
        EngineEntry(TableGridEngine, lambda o: TableGridEngine(_rapid(o))),
    )
}
"""Engines every run has, by route name, in the order runs build them."""


def register(entry: EngineEntry) -> None:
    """Add an embedded engine (or replace the one of its name): every run built afterwards has
    it, routes may name it, and its options type, if any, may configure it."""
    BUILTINS[entry.name] = entry


def unregister(name: str) -> None:
    """Remove the engine ``name`` added by :func:`register`."""
    BUILTINS.pop(name, None)


def pixel_readers() -> frozenset[str]:
    """The built-in engines whose answers are read from the page's pixels by OCR."""
    return frozenset({RapidOCREngine.name, TesseractEngine.name})


def grid_engine() -> str:
    """The route name of the table grid engine (it reads pixels where no text layer is
    trusted)."""
    return TableGridEngine.name


def builtin_engine_names() -> tuple[str, ...]:
    """The route names of the built-in engines."""
    return tuple(BUILTINS)


def engine_types() -> dict[type[BaseModel], EngineClass]:
    """Options type -> the engine class it configures (``openai`` aside: see _openai_engines)."""
    return {e.options_type: e.engine for e in BUILTINS.values() if e.options_type is not None}


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


def check_engine_names(options: Options, known: Mapping[str, object]) -> None:
    """Every engine the routes and the context pass name is one of ``known``; a served engine
    on a page route has a dialect, and every dialect is one the parsers read."""
    for name, engine in options.engines.items():
        if isinstance(engine, OpenAIEngineOptions) and engine.dialect not in (None, *_dialects()):
            raise ConfigError(
                f"engine {name!r}: unknown dialect {engine.dialect!r}",
                hint=f"known dialects: {', '.join(_dialects())}",
            )
    for key, chain in options.routes.items():
        unknown = [name for name in chain if name not in known]
        if unknown:
            raise ConfigError(f"route {key!r} names unknown engines {unknown}")
        if key.partition(".")[2] == PAGE_ROUTE:
            _check_page_chain(options, key, chain)
    if options.context.engine is not None and options.context.engine not in known:
        raise ConfigError(f"context.engine names an unknown engine {options.context.engine!r}")


def _dialects() -> list[str]:
    """The dialects the parsers read, sorted (imported only where a served engine is set)."""
    from pagereader.engines.dialects import PARSERS

    return sorted(PARSERS)


def _check_page_chain(options: Options, key: str, chain: Sequence[str]) -> None:
    """A served engine on a page route must say how its answer is written; a built-in engine
    there stands for the block routes (the page is laid out and its blocks read as usual)."""
    for name in chain:
        engine = options.engines.get(name)
        if isinstance(engine, OpenAIEngineOptions) and engine.dialect is None:
            raise ConfigError(
                f"route {key!r}: engine {name!r} has no dialect, so its whole-page answer "
                "cannot be read",
                hint=f"set [engines.{name}] dialect (one of {', '.join(_dialects())}), or "
                "route it per block kind",
            )


def build_engines(options: Options) -> dict[str, Engine]:
    """Every engine the routes may name: the built-ins, then the configured ones. A route
    naming no engine of either is a ConfigError."""
    engines: dict[str, Engine] = {name: e.build(options) for name, e in BUILTINS.items()}
    served = _openai_engines(options)
    engines.update(served)
    factories = engine_types()
    for name, engine_options in options.engines.items():
        if name in served:
            continue
        factory = factories.get(type(engine_options))
        if factory is None:
            kinds = sorted(
                {str(t.model_fields["kind"].default) for t in factories}
                | {str(OpenAIEngineOptions.model_fields["kind"].default)}
            )
            raise ConfigError(
                f"engine {name!r}: kind {engine_options.kind!r} is not available in this install",
                hint=f"known kinds: {', '.join(kinds)}",
            )
        engines[name] = factory(engine_options)
    check_engine_names(options, engines)
    return engines


def line_detector(options: RapidOCREngineOptions | None = None) -> LineDetector:
    """The embedded line detector at these OCR options (its detection size among them)."""
    return RapidOCRLines(options)


def script_reader(script: Script, options: RapidOCREngineOptions | None = None) -> LineReader:
    """The embedded reader of line crops in ``script``: the engine embedded_engine_for picks
    for it where every engine is installed (``available()`` says whether it is here)."""
    chosen, _ = embedded_engine_for(script, have_tesseract=True)
    if chosen == TesseractEngine.name:
        return TesseractLineReader(LANGS_BY_SCRIPT[script])
    return RapidOCRLines(options)


def engine_for_script(script: Script) -> tuple[str, str]:
    """The embedded engine that reads ``script`` here, and why (``none`` when none does)."""
    return embedded_engine_for(script)


def text_layer() -> Engine:
    """The engine that answers from the page's own text layer."""
    return TextLayerEngine()


def page_dialect(options: Options, name: str) -> str | None:
    """The dialect a page route's engine answers a whole page in; None for an engine that
    reads blocks only (a built-in one: on a page route it stands for the block routes)."""
    engine = options.engines.get(name)
    return engine.dialect if isinstance(engine, OpenAIEngineOptions) else None


def read_page_answer(
    options: Options,
    name: str,
    answer: str,
    finish_reason: str | None,
    page_size: tuple[float, float],
    image_size: tuple[int, int],
    pixels: tuple[int, int],
) -> PageAnswer:
    """A whole-page answer of engine ``name`` read in its dialect, its boxes mapped onto the
    page through the exact resize of the request (an image of ``image_size`` under the
    ``pixels`` bounds, min and max)."""
    engine = options.engines[name]
    assert isinstance(engine, OpenAIEngineOptions) and engine.dialect is not None
    from pagereader.engines.dialects import parse_answer

    frame = page_frame(engine, page_size, image_size, *pixels)
    return parse_answer(engine.dialect, answer, frame, finish_reason=finish_reason)
