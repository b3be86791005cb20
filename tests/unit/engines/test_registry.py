"""The registry reads engine facts from the engine classes."""

from __future__ import annotations

import pytest

from pagereader.config.options import (
    BUILTIN_ENGINES,
    OpenAIEngineOptions,
    Options,
    TesseractEngineOptions,
)
from pagereader.engines import registry
from pagereader.engines.registry import build_engines, builtin_engine_names
from pagereader.errors import ConfigError
from pagereader.evaluate.engines import BUILTIN_EVAL_ENGINES


def test_builtin_names_and_facts_come_from_the_classes() -> None:
    names = builtin_engine_names()
    assert sorted(names) == ["grid", "ocr", "rapidocr", "tesseract", "textlayer"]
    # the options' route check knows exactly the engines the registry builds
    assert set(names) == BUILTIN_ENGINES
    assert ("embedded", *names) == BUILTIN_EVAL_ENGINES
    engines = build_engines(
        Options(engines={"vlm": OpenAIEngineOptions(base_url="http://127.0.0.1:9/v1", model="m")})
    )
    assert {name: engine.name for name, engine in engines.items()} == {
        name: name for name in (*names, "vlm")
    }
    assert {n for n, e in engines.items() if e.embedded} == set(names)
    assert {n for n, e in engines.items() if e.pixel_blind} == set(names)
    assert (
        engines["vlm"].max_concurrency
        == OpenAIEngineOptions.model_fields["max_concurrency"].default
    )


def test_an_options_kind_without_a_factory_lists_the_known_kinds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(registry.ENGINE_TYPES, TesseractEngineOptions)  # type: ignore[misc]
    with pytest.raises(ConfigError) as info:
        build_engines(Options(engines={"tess": TesseractEngineOptions()}))
    assert "kind 'tesseract' is not available" in str(info.value)
    assert info.value.hint == "known kinds: openai, rapidocr, textlayer"
