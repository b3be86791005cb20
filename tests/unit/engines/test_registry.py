"""The registry reads engine facts from the engine classes."""

from __future__ import annotations

import dataclasses

import pytest

from pagereader.config.options import OpenAIEngineOptions, Options, TesseractEngineOptions
from pagereader.engines import registry
from pagereader.engines.registry import build_engines, builtin_engine_names
from pagereader.errors import ConfigError
from pagereader.evaluate.engines import BUILTIN_EVAL_ENGINES


def test_builtin_names_and_facts_come_from_the_classes() -> None:
    names = builtin_engine_names()
    assert names == ("textlayer", "rapidocr", "tesseract", "ocr", "grid")
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
    entry = registry.BUILTINS["tesseract"]
    monkeypatch.setitem(
        registry.BUILTINS, "tesseract", dataclasses.replace(entry, options_type=None)
    )
    with pytest.raises(ConfigError) as info:
        build_engines(Options(engines={"tess": TesseractEngineOptions()}))
    assert "kind 'tesseract' is not available" in str(info.value)
    assert info.value.hint == "known kinds: openai, rapidocr, textlayer"


def test_configured_kinds_come_from_the_table() -> None:
    assert {t.__name__: e.name for t, e in registry.engine_types().items()} == {
        "TextLayerEngineOptions": "textlayer",
        "RapidOCREngineOptions": "rapidocr",
        "TesseractEngineOptions": "tesseract",
    }
    engines = build_engines(Options(engines={"tess-psm3": TesseractEngineOptions(psm=3)}))
    assert engines["tess-psm3"].name == "tesseract"
    assert engines["tess-psm3"].options.psm == 3  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            Options(routes={"scan.text": ("nope",)}),
            "route 'scan.text' names unknown engines ['nope']",
        ),
        (
            Options(context={"engine": "nope"}),
            "context.engine names an unknown engine 'nope'",
        ),
    ],
)
def test_routes_naming_no_engine_are_refused_when_engines_are_built(
    options: Options, message: str
) -> None:
    with pytest.raises(ConfigError) as info:
        build_engines(options)
    assert str(info.value).startswith(message)


def test_capabilities_answer_by_script() -> None:
    assert registry.script_reader("hangul").name == "tesseract"
    assert registry.script_reader("hangul").install.startswith("apt-get install")
    for script in ("han", "latin", "mixed", "unknown"):
        reader = registry.script_reader(script)
        assert reader.name == "rapidocr" and reader.available()
    assert registry.text_layer().name == "textlayer"
    assert registry.line_detector().side == Options().ocr.det_limit_side_len
