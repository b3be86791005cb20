"""The embedded OCR's runtime choice and its figure-text rule."""

from __future__ import annotations

import importlib.util

import pytest

from pagereader.config.options import RapidOCREngineOptions
from pagereader.config.settings import resolve_options
from pagereader.engines import rapidocr
from pagereader.engines.rapidocr import figure_text, inference_backend
from pagereader.errors import ConfigError


def test_auto_takes_openvino_where_it_computes_in_bf16(monkeypatch: pytest.MonkeyPatch) -> None:
    assert inference_backend(RapidOCREngineOptions(backend="onnxruntime")) == "onnxruntime"
    assert inference_backend(RapidOCREngineOptions(backend="openvino")) == "openvino"
    monkeypatch.setattr(rapidocr, "cpu_has_bf16", lambda: True)
    assert inference_backend(RapidOCREngineOptions()) == "openvino"
    monkeypatch.setattr(rapidocr, "cpu_has_bf16", lambda: False)
    assert inference_backend(RapidOCREngineOptions()) == "onnxruntime"
    monkeypatch.setattr(rapidocr, "cpu_has_bf16", lambda: True)
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: None if name == "openvino" else real(name)
    )
    assert inference_backend(RapidOCREngineOptions()) == "onnxruntime"
    with pytest.raises(ConfigError, match="openvino"):
        rapidocr._runtime_params(RapidOCREngineOptions(backend="openvino"))


def test_the_cpu_check_answers_from_openvino() -> None:
    from openvino import Core

    capabilities = Core().get_property("CPU", "OPTIMIZATION_CAPABILITIES")
    assert rapidocr.cpu_has_bf16() == ("BF16" in capabilities)


def test_environment_sets_backend_and_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAGEREADER_OCR_BACKEND", "onnxruntime")
    monkeypatch.setenv("PAGEREADER_OCR_THREADS", "1")
    options = resolve_options()
    assert (options.ocr.backend, options.ocr.threads) == ("onnxruntime", 1)
    monkeypatch.setenv("PAGEREADER_OCR_BACKEND", "tensorflow")
    with pytest.raises(ConfigError, match="PAGEREADER_OCR_BACKEND"):
        resolve_options()


def test_a_lone_glyph_in_a_picture_is_not_text() -> None:
    assert not figure_text("■I")
    assert not figure_text("• |")
    assert figure_text("Q1")
    assert figure_text("圖表")
    assert figure_text("2025")
