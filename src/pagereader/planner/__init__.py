"""Capacity planning: what fits where, the vllm serve commands, and the config to match.

The package reasons from a catalog of published model and accelerator facts; it imports only
pagereader's types, options and errors, so it runs without a GPU or a network.
"""

from pagereader.pixels import smart_resize
from pagereader.planner.catalog import MODELS, ModelSpec, get_model
from pagereader.planner.hardware import GPUS, GpuSpec, get_gpu
from pagereader.planner.layouts import GpuSet, Layout, fit, parse_gpus, recommend
from pagereader.planner.memory import (
    kv_bytes_per_token,
    linear_state_bytes,
    visual_tokens,
    weights_bytes,
)
from pagereader.planner.report import ModelReport, PlanReport, markdown, model_report, plan_report
from pagereader.planner.vllm import emit_config, serve_command

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
