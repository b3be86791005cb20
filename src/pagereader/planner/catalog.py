"""Facts about the models the planner reasons from (accelerators are in hardware.py).

Every number here comes from a published config or datasheet; the comment beside each entry
names the source, so that a wrong figure can be traced and fixed in one place instead of being
guessed again (the design notes' KV figure was taken from another model's config).
"""

from __future__ import annotations

import re

from pagereader.errors import ConfigError
from pagereader.planner.model_spec import ModelSpec, PromptStyle, Role

__all__ = ["MODELS", "SEED_TABLE_MODELS", "ModelSpec", "PromptStyle", "Role", "get_model"]

_QWEN25_MIN, _QWEN25_MAX = 3136, 12845056
# Qwen2.5-VL preprocessor_config.json: min_pixels 3136, max_pixels 12845056, patch 14, merge 2.
_QWEN3_MIN, _QWEN3_MAX = 65536, 16777216
# Qwen3-VL and Qwen3.5 preprocessor_config.json: size.shortest_edge 65536 and size.longest_edge
# 16777216 (these are pixel counts, not edges), patch_size 16, merge_size 2.

_GDN_KEY_HEADS, _GDN_HEAD_DIM, _GDN_CONV_KERNEL, _GDN_STATE_BYTES = 16, 128, 4, 4
# Qwen3.5 text_config: linear_num_key_heads 16, linear_key_head_dim 128, linear_value_head_dim
# 128, linear_conv_kernel_dim 4, mamba_ssm_dtype float32 (the recurrent state is kept in fp32),
# full_attention_interval 4 (one layer in four keeps a KV cache).

MODELS: tuple[ModelSpec, ...] = (
    ModelSpec(
        key="paddleocr-vl",
        repo="PaddlePaddle/PaddleOCR-VL",
        role="parser",
        prompt_style="paddleocr-vl",
        # 0.906B loaded. The checkpoint holds 0.959B ("0.96B" on the model page): it also
        # carries the SigLIP attention-pooling head (vision_model.head.*, 15.2M) and
        # packing_position_embedding (32768 x 1152 = 37.7M), which neither vLLM
        # (paddleocr_vl.py maps both to None) nor transformers (convert_paddleocr_vl_to_hf.py
        # KEYS_TO_IGNORE) loads. Measured 905,601,648 on the GPU, lm_head untied.
        params_b=0.906,
        # transformers PaddleOCRTextConfig (ERNIE-4.5-0.3B): 18 layers, 2 KV heads,
        # head_dim 128, hidden 1024.
        layers=18,
        kv_layers=18,
        kv_heads=2,
        head_dim=128,
        hidden_size=1024,
        # preprocessor_config.json: patch_size 14, merge_size 2, min_pixels 147384,
        # max_pixels 2822400; vision encoder hidden 1152 (SigLIP-style NaViT, 27 layers).
        patch_size=14,
        merge_size=2,
        min_pixels=147384,
        max_pixels=2822400,
        vision_hidden=1152,
        # Measured: vision 0.4389B of which the mlp_AR projector 0.0260B (runs on merged
        # tokens), 27 SigLIP layers; vocab 103424, lm_head not tied (published config).
        vision_params_b=0.4389,
        vision_merger_b=0.0260,
        vision_layers=27,
        vocab_size=103424,
        # vLLM recipe for PaddlePaddle/PaddleOCR-VL (the PaddleOCR-VL design note).
        extra_serve_flags=(
            "--trust-remote-code",
            "--max-num-batched-tokens 16384",
            "--no-enable-prefix-caching",
            "--mm-processor-cache-gb 0",
        ),
        aliases=("parser", "paddleocr-vl-0.9b", "paddleocr"),
        sources=(
            "huggingface.co/PaddlePaddle/PaddleOCR-VL preprocessor_config.json",
            "transformers models/paddleocr_vl/configuration_paddleocr_vl.py",
        ),
    ),
    ModelSpec(
        key="qwen2.5-vl-7b",
        repo="Qwen/Qwen2.5-VL-7B-Instruct",
        role="general",
        prompt_style="qwen-vl",
        # 8.29B: Hugging Face model page (safetensors total, vision tower included).
        params_b=8.29,
        # config.json: num_hidden_layers 28, num_key_value_heads 4, hidden 3584, 28 heads
        # (head_dim 128); vision_config hidden_size 1280, patch 14, spatial_merge 2.
        layers=28,
        kv_layers=28,
        kv_heads=4,
        head_dim=128,
        hidden_size=3584,
        patch_size=14,
        merge_size=2,
        vision_hidden=1280,
        # Measured: vision 0.6766B, merger 0.0446B; 32 layers of which 28 windowed
        # (fullatt_block_indexes 7, 15, 23, 31); vocab 152064, untied.
        vision_params_b=0.6766,
        vision_merger_b=0.0446,
        vision_layers=32,
        vision_window_layers=28,
        vocab_size=152064,
        min_pixels=_QWEN25_MIN,
        max_pixels=_QWEN25_MAX,
        int4_repo="Qwen/Qwen2.5-VL-7B-Instruct-AWQ",
        aliases=("qwen2.5-vl",),
        sources=("huggingface.co/Qwen/Qwen2.5-VL-7B-Instruct config.json",),
    ),
    ModelSpec(
        key="qwen3-vl-4b",
        repo="Qwen/Qwen3-VL-4B-Instruct",
        role="general",
        prompt_style="qwen-vl",
        # 4.44B: Hugging Face model page. text_config: 36 layers, 8 KV heads, head_dim 128,
        # hidden 2560; vision_config hidden 1024, patch 16, merge 2.
        params_b=4.44,
        layers=36,
        kv_layers=36,
        kv_heads=8,
        head_dim=128,
        hidden_size=2560,
        patch_size=16,
        merge_size=2,
        vision_hidden=1024,
        # Estimated, not measured: vision_config depth 24, hidden 1024, intermediate 4096,
        # merger plus 3 deepstack mergers into 2560; vocab 151936, tied embeddings.
        vision_params_b=0.415,
        vision_merger_b=0.109,
        vision_layers=24,
        vocab_size=151936,
        tied_embeddings=True,
        min_pixels=_QWEN3_MIN,
        max_pixels=_QWEN3_MAX,
        sources=("huggingface.co/Qwen/Qwen3-VL-4B-Instruct config.json",),
    ),
    ModelSpec(
        key="qwen3-vl-8b",
        repo="Qwen/Qwen3-VL-8B-Instruct",
        role="general",
        prompt_style="qwen-vl",
        # 8.77B: Hugging Face model page. text_config: num_hidden_layers 36,
        # num_key_value_heads 8, head_dim 128, hidden 4096; vision_config depth 27,
        # hidden 1152, patch 16, spatial_merge 2.
        params_b=8.77,
        layers=36,
        kv_layers=36,
        kv_heads=8,
        head_dim=128,
        hidden_size=4096,
        patch_size=16,
        merge_size=2,
        vision_hidden=1152,
        # Measured: vision 0.5764B, merger and deepstack mergers 0.1605B; vocab 151936, untied.
        vision_params_b=0.5764,
        vision_merger_b=0.1605,
        vision_layers=27,
        vocab_size=151936,
        min_pixels=_QWEN3_MIN,
        max_pixels=_QWEN3_MAX,
        sources=("huggingface.co/Qwen/Qwen3-VL-8B-Instruct config.json",),
    ),
    ModelSpec(
        key="qwen3-vl-32b",
        repo="Qwen/Qwen3-VL-32B-Instruct",
        role="general",
        prompt_style="qwen-vl",
        # 33.4B: Hugging Face model page. text_config: num_hidden_layers 64,
        # num_key_value_heads 8, head_dim 128, hidden 5120 (the config quoted in the design
        # notes' KV derivation).
        params_b=33.4,
        layers=64,
        kv_layers=64,
        kv_heads=8,
        head_dim=128,
        hidden_size=5120,
        patch_size=16,
        merge_size=2,
        vision_hidden=1152,
        # Measured: vision 0.5953B, mergers 0.1794B; vocab 151936, untied.
        vision_params_b=0.5953,
        vision_merger_b=0.1794,
        vision_layers=27,
        vocab_size=151936,
        min_pixels=_QWEN3_MIN,
        max_pixels=_QWEN3_MAX,
        int4_repo="<org>/Qwen3-VL-32B-Instruct-AWQ",
        sources=("huggingface.co/Qwen/Qwen3-VL-32B-Instruct config.json",),
    ),
    ModelSpec(
        key="qwen3-vl-30b-a3b",
        repo="Qwen/Qwen3-VL-30B-A3B-Instruct",
        role="general",
        prompt_style="qwen-vl",
        # 31.1B total, 3.3B active: Hugging Face model page and Qwen3-30B-A3B card.
        # Megatron args in THUDM/slime scripts/models/qwen3-vl-30b-a3b.sh: num-layers 48,
        # num-query-groups 4, kv-channels 128, hidden 2048, 128 experts top-8.
        params_b=31.1,
        active_params_b=3.3,
        layers=48,
        kv_layers=48,
        kv_heads=4,
        head_dim=128,
        hidden_size=2048,
        patch_size=16,
        merge_size=2,
        vision_hidden=1152,
        # Measured: vision 0.5386B, mergers 0.1227B; vocab 151936, untied.
        vision_params_b=0.5386,
        vision_merger_b=0.1227,
        vision_layers=27,
        vocab_size=151936,
        min_pixels=_QWEN3_MIN,
        max_pixels=_QWEN3_MAX,
        int4_repo="<org>/Qwen3-VL-30B-A3B-Instruct-AWQ",
        sources=("THUDM/slime scripts/models/qwen3-vl-30b-a3b.sh",),
    ),
    ModelSpec(
        key="qwen3-vl-235b-a22b",
        repo="Qwen/Qwen3-VL-235B-A22B-Instruct",
        role="general",
        prompt_style="qwen-vl",
        # 236B total, 22B active: Hugging Face model page. THUDM/slime
        # scripts/models/qwen3-vl-235b-a22b.sh: num-layers 94, num-query-groups 4,
        # kv-channels 128, hidden 4096.
        params_b=236.0,
        active_params_b=22.0,
        layers=94,
        kv_layers=94,
        kv_heads=4,
        head_dim=128,
        hidden_size=4096,
        patch_size=16,
        merge_size=2,
        vision_hidden=1152,
        # Assumed, not measured: the Qwen3-VL-8B vision tower (27 x 1152, mergers into 4096).
        vision_params_b=0.5764,
        vision_merger_b=0.1605,
        vision_layers=27,
        vocab_size=151936,
        min_pixels=_QWEN3_MIN,
        max_pixels=_QWEN3_MAX,
        int4_repo="<org>/Qwen3-VL-235B-A22B-Instruct-AWQ",
        sources=("THUDM/slime scripts/models/qwen3-vl-235b-a22b.sh",),
    ),
    ModelSpec(
        key="qwen3.5-27b",
        repo="Qwen/Qwen3.5-27B",
        role="general",
        prompt_style="qwen-vl",
        # 27B: model card. text_config: num_hidden_layers 64, full_attention_interval 4
        # (16 KV layers), num_key_value_heads 4, head_dim 256, hidden 5120,
        # linear_num_value_heads 48 (THUDM/slime scripts/models/qwen3.5-27B.sh and the
        # published text_config).
        params_b=27.0,
        layers=64,
        kv_layers=16,
        kv_heads=4,
        head_dim=256,
        hidden_size=5120,
        patch_size=16,
        merge_size=2,
        vision_hidden=1152,
        # Assumed, not measured: a Qwen3-VL-32B-sized vision tower (mergers into 5120) and
        # the Qwen3 vocabulary.
        vision_params_b=0.5953,
        vision_merger_b=0.1794,
        vision_layers=27,
        vocab_size=151936,
        min_pixels=_QWEN3_MIN,
        max_pixels=_QWEN3_MAX,
        reasoning=True,
        linear_value_heads=48,
        linear_key_heads=_GDN_KEY_HEADS,
        linear_key_dim=_GDN_HEAD_DIM,
        linear_value_dim=_GDN_HEAD_DIM,
        linear_conv_kernel=_GDN_CONV_KERNEL,
        linear_state_bytes=_GDN_STATE_BYTES,
        int4_repo="<org>/Qwen3.5-27B-AWQ",
        aliases=("qwen3.8-27b",),
        sources=("THUDM/slime scripts/models/qwen3.5-27B.sh", "Qwen3.5-27B text_config"),
    ),
    ModelSpec(
        key="qwen3.5-35b-a3b",
        repo="Qwen/Qwen3.5-35B-A3B",
        role="general",
        prompt_style="qwen-vl",
        # 35B total, 3B active: model card. THUDM/slime scripts/models/qwen3.5-35B-A3B.sh:
        # num-layers 40, linear-attention-freq 4 (10 KV layers), num-query-groups 2,
        # kv-channels 256, hidden 2048, linear-num-value-heads 32, 256 experts top-8.
        params_b=35.0,
        active_params_b=3.0,
        layers=40,
        kv_layers=10,
        kv_heads=2,
        head_dim=256,
        hidden_size=2048,
        patch_size=16,
        merge_size=2,
        vision_hidden=1152,
        # Assumed, not measured: a Qwen3-VL-30B-A3B-sized vision tower (mergers into 2048)
        # and the Qwen3 vocabulary.
        vision_params_b=0.5386,
        vision_merger_b=0.1227,
        vision_layers=27,
        vocab_size=151936,
        min_pixels=_QWEN3_MIN,
        max_pixels=_QWEN3_MAX,
        reasoning=True,
        linear_value_heads=32,
        linear_key_heads=_GDN_KEY_HEADS,
        linear_key_dim=_GDN_HEAD_DIM,
        linear_value_dim=_GDN_HEAD_DIM,
        linear_conv_kernel=_GDN_CONV_KERNEL,
        linear_state_bytes=_GDN_STATE_BYTES,
        int4_repo="<org>/Qwen3.5-35B-A3B-AWQ",
        sources=("THUDM/slime scripts/models/qwen3.5-35B-A3B.sh",),
    ),
)

#: The rows of the design notes' "what fits where" table, in its order.
SEED_TABLE_MODELS: tuple[str, ...] = (
    "paddleocr-vl",
    "qwen3-vl-4b",
    "qwen3-vl-8b",
    "qwen3.5-27b",
    "qwen3-vl-32b",
    "qwen3-vl-30b-a3b",
    "qwen3-vl-235b-a22b",
)


def normalize_name(name: str) -> str:
    """A catalog key from what a user typed: lower case, dashes for spaces and underscores."""
    return re.sub(r"[\s_]+", "-", name.strip().lower())


def get_model(name: str) -> ModelSpec:
    """Find a model by key, repo id or alias, case-insensitively."""
    wanted = normalize_name(name)
    for model in MODELS:
        names = {model.key, model.repo.lower(), model.repo.split("/")[-1].lower(), *model.aliases}
        if wanted in names or wanted.removesuffix("-instruct") in names:
            return model
    known = ", ".join(m.key for m in MODELS)
    raise ConfigError(f"unknown model {name!r}", hint=f"known models: {known}")
