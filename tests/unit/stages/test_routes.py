"""Route precedence: class.kind, then *.kind, then class.*, then *.*."""

from __future__ import annotations

from pagereader.config.options import DEFAULT_ROUTES
from pagereader.stages.engine_routes import resolve_route, task_for

ROUTES = {
    "digital.text": ["textlayer"],
    "scan.text": ["parser", "rapidocr"],
    "dense.*": ["parser", "rapidocr"],
    "*.figure": ["general"],
    "*.table": ["parser", "rapidocr"],
}


def test_exact_route_wins() -> None:
    assert resolve_route(ROUTES, "scan", "text") == ["parser", "rapidocr"]


def test_kind_wide_route_beats_class_wide_route() -> None:
    assert resolve_route(ROUTES, "dense", "figure") == ["general"]
    assert resolve_route(ROUTES, "dense", "title") == ["parser", "rapidocr"]


def test_no_route_is_empty() -> None:
    assert resolve_route(ROUTES, "scan", "title") == []


def test_default_routes_keep_digital_text_on_the_text_layer() -> None:
    assert resolve_route(DEFAULT_ROUTES, "digital", "text") == ["textlayer", "ocr"]
    assert resolve_route(DEFAULT_ROUTES, "digital", "table")[0] == "grid"
    assert resolve_route(DEFAULT_ROUTES, "scan", "list") == ["ocr"]


def test_tasks_follow_kinds() -> None:
    assert [task_for(k) for k in ("table", "figure", "formula", "caption")] == [
        "table",
        "figure",
        "formula",
        "text",
    ]
