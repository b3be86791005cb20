"""A tiny Qwen-VL model folder with random weights for ``mlx_vlm.server``: nothing downloaded.

Run by the mlx venv's Python: ``python tiny_model.py OUT FAMILY CORPUS...``. The tokenizer,
chat template and configs are those of the vLLM tests' tiny model (real_vllm/tiny_model.py:
the same dimensions, special tokens at their real ids); mlx-vlm loads weights, so they are
made here: the model class mlx-vlm itself builds from that config.json, initialised at random
by mlx, its parameters saved as ``model.safetensors`` under the names it loads.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from real_vllm.tiny_model import FAMILIES, build


def weights(out: Path) -> int:
    """Write the random weights of the model in ``out``; their count of parameters."""
    import mlx.core as mx
    from mlx.utils import tree_flatten
    from mlx_vlm.utils import get_model_and_args, load_config, update_module_configs

    config = load_config(out)
    model_class, _ = get_model_and_args(config=config, model_path=out)
    config.setdefault("text_config", {})
    config.setdefault("vision_config", {})
    model_config = model_class.ModelConfig.from_dict(config)
    modules = ["text", "vision", "perceiver", "projector", "audio"]
    model_config = update_module_configs(model_config, model_class, config, modules)
    model = model_class.Model(model_config)
    mx.random.seed(0)
    params = dict(tree_flatten(model.parameters()))
    mx.save_safetensors(str(out / "model.safetensors"), params, metadata={"format": "mlx"})
    return sum(int(v.size) for v in params.values())


def main(argv: list[str]) -> None:
    if len(argv) < 3 or argv[1] not in FAMILIES:
        raise SystemExit(f"usage: tiny_model.py OUT {'|'.join(FAMILIES)} CORPUS_FILE...")
    out = Path(argv[0])
    build(out, argv[1], argv[2:])
    count = weights(out)
    print(json.dumps({"model": str(out), "family": argv[1], "parameters": count}))


if __name__ == "__main__":
    main(sys.argv[1:])
