"""A tiny Qwen-VL model folder for ``vllm serve --load-format dummy``: nothing downloaded.

Run by the vLLM venv's Python (it has ``tokenizers``): ``python tiny_model.py OUT FAMILY
CORPUS...`` with FAMILY ``qwen2_vl`` or ``qwen3_vl``. The tokenizer is a byte-level BPE trained
on the corpus (local text), padded so that the special tokens keep the real Qwen2 ids
(151643-151656 of a 151936 vocabulary): the chat template and vLLM's placeholder handling see
the ids they expect. The dimensions are the smallest vLLM's CPU kernels take (attention head
size 32: 16 starts, then kills the engine on the first request). Weights are random (dummy),
so answers are noise: these models test the request contract, never quality.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

FAMILIES = ("qwen2_vl", "qwen3_vl")
LEARNED = 4000
FIRST_SPECIAL = 151643
VOCAB = 151936
SPECIALS = (
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|object_ref_start|>",
    "<|object_ref_end|>",
    "<|box_start|>",
    "<|box_end|>",
    "<|quad_start|>",
    "<|quad_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|vision_pad|>",
    "<|image_pad|>",
    "<|video_pad|>",
)
IDS = {token: FIRST_SPECIAL + n for n, token in enumerate(SPECIALS)}

#: The Qwen2-VL Instruct template: an image is <|vision_start|><|image_pad|><|vision_end|>.
CHAT_TEMPLATE = (
    "{% set image_count = namespace(value=0) %}"
    "{% for message in messages %}{% if loop.first and message['role'] != 'system' %}"
    "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n{% endif %}"
    "<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}<|im_end|>\n"
    "{% else %}{% for content in message['content'] %}"
    "{% if content['type'] == 'image' or 'image' in content or 'image_url' in content %}"
    "{% set image_count.value = image_count.value + 1 %}"
    "<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif 'text' in content %}{{ content['text'] }}{% endif %}{% endfor %}<|im_end|>\n"
    "{% endif %}{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def tokenizer_json(corpus: list[str]) -> dict[str, Any]:
    """A byte-level BPE trained on the corpus, its vocabulary padded to the real layout."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE(unk_token=None, fuse_unk=False, byte_fallback=False))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=LEARNED,
        min_frequency=1,
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=[],
    )
    tokenizer.train(corpus, trainer)
    data: dict[str, Any] = json.loads(tokenizer.to_str())
    vocab: dict[str, int] = data["model"]["vocab"]
    for filler in range(len(vocab), FIRST_SPECIAL):
        vocab[f"\u0120r{filler}"] = filler  # no merge reaches these; they decode to " r123"
    data["added_tokens"] = [
        {
            "id": IDS[token],
            "content": token,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
        for token in SPECIALS
    ]
    data["post_processor"] = None
    return data


def _text_dims() -> dict[str, Any]:
    return {
        "vocab_size": VOCAB,
        "hidden_size": 128,
        "intermediate_size": 256,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "hidden_act": "silu",
        "max_position_embeddings": 32768,
        "rms_norm_eps": 1e-6,
        "attention_dropout": 0.0,
        "initializer_range": 0.02,
        "use_cache": True,
        "tie_word_embeddings": True,
    }


def config(family: str) -> dict[str, Any]:
    """config.json of the family, at tiny dimensions."""
    tokens = {
        "image_token_id": IDS["<|image_pad|>"],
        "video_token_id": IDS["<|video_pad|>"],
        "vision_start_token_id": IDS["<|vision_start|>"],
        "vision_end_token_id": IDS["<|vision_end|>"],
    }
    if family == "qwen2_vl":
        return {
            "architectures": ["Qwen2VLForConditionalGeneration"],
            "model_type": "qwen2_vl",
            "torch_dtype": "bfloat16",
            "bos_token_id": IDS["<|endoftext|>"],
            "eos_token_id": IDS["<|im_end|>"],
            "pad_token_id": IDS["<|endoftext|>"],
            "vision_token_id": IDS["<|vision_pad|>"],
            **tokens,
            **_text_dims(),
            "max_window_layers": 2,
            "rope_theta": 1000000.0,
            "rope_scaling": {"type": "mrope", "mrope_section": [4, 6, 6]},
            "sliding_window": 32768,
            "use_sliding_window": False,
            "vision_config": {
                "depth": 2,
                "embed_dim": 64,
                "mlp_ratio": 2,
                "num_heads": 2,
                "in_chans": 3,
                "in_channels": 3,
                "hidden_size": 128,
                "hidden_act": "quick_gelu",
                "patch_size": 14,
                "spatial_patch_size": 14,
                "spatial_merge_size": 2,
                "temporal_patch_size": 2,
            },
        }
    text = {
        "model_type": "qwen3_vl_text",
        "dtype": "bfloat16",
        "bos_token_id": IDS["<|endoftext|>"],
        "eos_token_id": IDS["<|im_end|>"],
        **_text_dims(),
        "head_dim": 32,
        "attention_bias": False,
        "rope_theta": 5000000,
        "rope_scaling": {
            "rope_type": "default",
            "mrope_interleaved": True,
            "mrope_section": [6, 5, 5],
        },
    }
    return {
        "architectures": ["Qwen3VLForConditionalGeneration"],
        "model_type": "qwen3_vl",
        **tokens,
        "tie_word_embeddings": True,
        "text_config": text,
        "vision_config": {
            "model_type": "qwen3_vl",
            "depth": 2,
            "hidden_size": 64,
            "intermediate_size": 128,
            "num_heads": 2,
            "out_hidden_size": 128,
            "hidden_act": "gelu_pytorch_tanh",
            "in_channels": 3,
            "initializer_range": 0.02,
            "num_position_embeddings": 2304,
            "deepstack_visual_indexes": [1],
            "patch_size": 16,
            "spatial_merge_size": 2,
            "temporal_patch_size": 2,
        },
    }


def preprocessor(family: str) -> dict[str, Any]:
    """preprocessor_config.json: Qwen2-VL's processor (patch 14) or Qwen3-VL's (patch 16)."""
    if family == "qwen2_vl":
        low, high, patch, processor = 3136, 12845056, 14, "Qwen2VLProcessor"
        mean, std = [0.48145466, 0.4578275, 0.40821073], [0.26862954, 0.26130258, 0.27577711]
    else:
        low, high, patch, processor = 65536, 16777216, 16, "Qwen3VLProcessor"
        mean, std = [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]
    return {
        "image_processor_type": "Qwen2VLImageProcessor",
        "processor_class": processor,
        "do_resize": True,
        "do_rescale": True,
        "rescale_factor": 1 / 255,
        "do_normalize": True,
        "do_convert_rgb": True,
        "resample": 3,
        "image_mean": mean,
        "image_std": std,
        "min_pixels": low,
        "max_pixels": high,
        "size": {"shortest_edge": low, "longest_edge": high},
        "patch_size": patch,
        "temporal_patch_size": 2,
        "merge_size": 2,
    }


def tokenizer_config() -> dict[str, Any]:
    return {
        "tokenizer_class": "Qwen2Tokenizer",
        "added_tokens_decoder": {
            str(IDS[token]): {
                "content": token,
                "lstrip": False,
                "normalized": False,
                "rstrip": False,
                "single_word": False,
                "special": True,
            }
            for token in SPECIALS
        },
        "additional_special_tokens": list(SPECIALS[1:]),
        "bos_token": None,
        "eos_token": "<|im_end|>",
        "pad_token": "<|endoftext|>",
        "unk_token": None,
        "errors": "replace",
        "clean_up_tokenization_spaces": False,
        "split_special_tokens": False,
        "model_max_length": 32768,
        "padding_side": "left",
        "chat_template": CHAT_TEMPLATE,
    }


def build(out: Path, family: str, corpus: list[str]) -> None:
    """Write the model folder: tokenizer, config, generation and preprocessor configs."""
    if family not in FAMILIES:
        raise SystemExit(f"family must be one of {FAMILIES}, got {family!r}")
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, Any] = {
        "tokenizer.json": tokenizer_json(corpus),
        "tokenizer_config.json": tokenizer_config(),
        "chat_template.json": {"chat_template": CHAT_TEMPLATE},
        "config.json": config(family),
        "preprocessor_config.json": preprocessor(family),
        "generation_config.json": {
            "bos_token_id": IDS["<|endoftext|>"],
            "eos_token_id": [IDS["<|im_end|>"], IDS["<|endoftext|>"]],
            "pad_token_id": IDS["<|endoftext|>"],
            "do_sample": False,
        },
    }
    for name, data in files.items():
        (out / name).write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    if len(sys.argv) < 4:
        raise SystemExit("usage: tiny_model.py OUT qwen2_vl|qwen3_vl CORPUS_FILE...")
    build(Path(sys.argv[1]), sys.argv[2], sys.argv[3:])
