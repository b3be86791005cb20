"""Capacity planning: what fits where, the vllm serve commands, and the config to match.

The package reasons from a catalog of published model and accelerator facts; it imports only
pagereader's types, options and errors, so it runs without a GPU or a network. Its names are
imported when first used (PEP 562), so that a command reading one planner module pays for no
other.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pagereader.pixels import smart_resize
    from pagereader.planner.catalog import MODELS, ModelSpec, get_model
    from pagereader.planner.hardware import GPUS, GpuSpec, get_gpu
    from pagereader.planner.memory import (
        kv_bytes_per_token,
        linear_state_bytes,
        visual_tokens,
        weights_bytes,
    )
    from pagereader.planner.placement import GpuSet, Layout, fit, parse_gpus, recommend
    from pagereader.planner.report_text import markdown
    from pagereader.planner.reporting import ModelReport, PlanReport, model_report, plan_report
    from pagereader.planner.vllm import emit_config, serve_command

_HOMES = {
    "GPUS": "pagereader.planner.hardware",
    "GpuSet": "pagereader.planner.placement",
    "GpuSpec": "pagereader.planner.hardware",
    "Layout": "pagereader.planner.placement",
    "MODELS": "pagereader.planner.catalog",
    "ModelReport": "pagereader.planner.reporting",
    "ModelSpec": "pagereader.planner.catalog",
    "PlanReport": "pagereader.planner.reporting",
    "emit_config": "pagereader.planner.vllm",
    "fit": "pagereader.planner.placement",
    "get_gpu": "pagereader.planner.hardware",
    "get_model": "pagereader.planner.catalog",
    "kv_bytes_per_token": "pagereader.planner.memory",
    "linear_state_bytes": "pagereader.planner.memory",
    "markdown": "pagereader.planner.report_text",
    "model_report": "pagereader.planner.reporting",
    "parse_gpus": "pagereader.planner.placement",
    "plan_report": "pagereader.planner.reporting",
    "recommend": "pagereader.planner.placement",
    "serve_command": "pagereader.planner.vllm",
    "smart_resize": "pagereader.pixels",
    "visual_tokens": "pagereader.planner.memory",
    "weights_bytes": "pagereader.planner.memory",
}

__all__ = [
    "GPUS",
    "MODELS",
    "GpuSet",
    "GpuSpec",
    "Layout",
    "ModelReport",
    "ModelSpec",
    "PlanReport",
    "emit_config",
    "fit",
    "get_gpu",
    "get_model",
    "kv_bytes_per_token",
    "linear_state_bytes",
    "markdown",
    "model_report",
    "parse_gpus",
    "plan_report",
    "recommend",
    "serve_command",
    "smart_resize",
    "visual_tokens",
    "weights_bytes",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'pagereader.planner' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])
