"""The body fields each OpenAI-compatible server reads beyond the OpenAI schema, by server kind.

Both vLLM and mlx-vlm take the pixel bounds of the image processor per request, but in
different places, and neither refuses the other's: vLLM reads ``mm_processor_kwargs`` and
``chat_template_kwargs``, mlx-vlm (``mlx_vlm.server``) reads top-level ``min_pixels``,
``max_pixels`` and ``enable_thinking`` and silently ignores ``mm_processor_kwargs`` (measured:
a 1191x842 crop cost 1,323 prompt tokens with ``mm_processor_kwargs.max_pixels`` 200,000 and
267 with top-level ``max_pixels``). A wrong dialect is therefore never an error, only a budget
quietly not kept: the engine's ``server`` option names the dialect, and the engine and the
calibration both build their bodies here.
"""

from __future__ import annotations

from typing import Any

from pagereader.config.engine_options import ServerKind


def pixel_fields(server: ServerKind, min_pixels: int, max_pixels: int) -> dict[str, Any]:
    """The pixel bounds (both, or transformers' processor ignores them) and thinking off."""
    if server == "mlx-vlm":
        return {"min_pixels": min_pixels, "max_pixels": max_pixels, "enable_thinking": False}
    return {
        "mm_processor_kwargs": {"min_pixels": min_pixels, "max_pixels": max_pixels},
        "chat_template_kwargs": {"enable_thinking": False},
    }


def length_fields(server: ServerKind, tokens: int) -> dict[str, Any]:
    """Fields that make the answer exactly ``tokens`` long where the server has them (vLLM's
    ``min_tokens`` and ``ignore_eos``); mlx-vlm has none: its answers may stop early."""
    if server == "mlx-vlm":
        return {}
    return {"min_tokens": tokens, "ignore_eos": True}


def forces_length(server: ServerKind) -> bool:
    """Whether the server can be asked for an answer of an exact length."""
    return bool(length_fields(server, 1))
