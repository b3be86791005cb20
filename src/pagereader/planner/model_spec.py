"""The shape of a served model as the planner reads it: sizes that decide memory and time, and
the vision rule that decides visual tokens. The rows themselves are in catalog.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Role = Literal["parser", "general"]
PromptStyle = Literal["paddleocr-vl", "qwen-vl"]


@dataclass(frozen=True)
class ModelSpec:
    """One served model: sizes that decide memory, and the vision rule that decides tokens."""

    key: str
    repo: str
    role: Role
    prompt_style: PromptStyle
    params_b: float
    layers: int
    kv_layers: int
    kv_heads: int
    head_dim: int
    hidden_size: int
    patch_size: int
    merge_size: int
    min_pixels: int
    max_pixels: int
    vision_hidden: int
    vision_params_b: float
    vision_merger_b: float
    vision_layers: int
    vocab_size: int
    tied_embeddings: bool = False
    vision_window_layers: int = 0
    active_params_b: float | None = None
    reasoning: bool = False
    linear_key_heads: int = 0
    linear_value_heads: int = 0
    linear_key_dim: int = 0
    linear_value_dim: int = 0
    linear_conv_kernel: int = 0
    linear_state_bytes: int = 4
    extra_serve_flags: tuple[str, ...] = ()
    int4_repo: str = ""
    aliases: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()

    @property
    def factor(self) -> int:
        """Pixels per side of one visual token: patch x spatial merge."""
        return self.patch_size * self.merge_size

    @property
    def hybrid(self) -> bool:
        """Gated DeltaNet hybrids keep a KV cache only in their full-attention layers."""
        return self.kv_layers < self.layers

    @property
    def vision_patch_params_b(self) -> float:
        """Vision parameters applied to every patch (the merger runs on merged tokens)."""
        return self.vision_params_b - self.vision_merger_b

    @property
    def language_params_b(self) -> float:
        """Parameters outside the vision encoder: decoder layers, embeddings, LM head."""
        return self.params_b - self.vision_params_b

    @property
    def moe(self) -> bool:
        return self.active_params_b is not None

    @property
    def linear_layers(self) -> int:
        return self.layers - self.kv_layers
