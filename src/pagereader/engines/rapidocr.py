"""The embedded OCR: PP-OCR det/rec models shipped inside the rapidocr wheel, on onnxruntime.

Loading the models takes seconds, so one instance per settings lives for the whole process;
calls are serialised on it (onnxruntime already uses every core for one call).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

import numpy as np
from PIL import Image

from pagereader.engines.base import BlockRequest, EmbeddedEngine
from pagereader.errors import EngineError
from pagereader.layout.paragraphs import join_lines
from pagereader.layout.quiet import load_quietly
from pagereader.options import RapidOCREngineOptions
from pagereader.types import TEXT_KINDS, Recognition, TextLine

logger = logging.getLogger(__name__)

_MODELS: dict[RapidOCREngineOptions, tuple[Any, threading.Lock]] = {}
_MODELS_LOCK = threading.Lock()
_MAX_INPUT_SIDE = 4000


def _model(options: RapidOCREngineOptions) -> tuple[Any, threading.Lock]:
    with _MODELS_LOCK:
        if options not in _MODELS:
            from rapidocr import RapidOCR

            params = {
                "Global.use_cls": options.use_cls,
                "Global.log_level": "warning",
                "Global.text_score": 0.0,
                "Det.limit_type": "max",
                "Det.limit_side_len": options.det_limit_side_len,
                "EngineConfig.onnxruntime.intra_op_num_threads": options.threads,
            }
            model = load_quietly(lambda: RapidOCR(params=params))
            _MODELS[options] = (model, threading.Lock())
        return _MODELS[options]


def _model_input(image: Image.Image) -> tuple[np.ndarray, float]:
    """The RGB array RapidOCR reads, and its pixels per image pixel. RapidOCR itself shrinks
    any input to 2000 pixels a side; an image over _MAX_INPUT_SIDE is shrunk to it first, so a
    huge page or crop never gets a full-size array copy (smaller images pass unchanged)."""
    factor = min(1.0, _MAX_INPUT_SIDE / max(1, image.width, image.height))
    if factor < 1.0:
        width = image.width
        size = (max(1, int(width * factor)), max(1, int(image.height * factor)))
        image = image.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)
        factor = image.width / width
    return np.asarray(image if image.mode == "RGB" else image.convert("RGB")), factor


def _quad_to_bbox(quad: Any, k: float = 1.0) -> tuple[float, float, float, float]:
    """The box of a detected quadrilateral, in the pixels of the image before _model_input."""
    points = np.asarray(quad, dtype=float).reshape(-1, 2) / k
    return (
        float(points[:, 0].min()),
        float(points[:, 1].min()),
        float(points[:, 0].max()),
        float(points[:, 1].max()),
    )


def ocr_lines(
    image: Image.Image, options: RapidOCREngineOptions | None = None, min_score: float = 0.5
) -> list[TextLine]:
    """Detect and recognize text lines; boxes in the image's pixels, top-down order.

    Lines read with a score under ``min_score`` keep their box with empty text: the box is
    still layout evidence, and another engine may read it.
    """
    model, lock = _model(options or RapidOCREngineOptions())
    array, k = _model_input(image)
    with lock:
        result = model(
            array, use_det=True, use_cls=(options or RapidOCREngineOptions()).use_cls, use_rec=True
        )
    if result.boxes is None or result.txts is None:
        return []
    lines = [
        TextLine(
            text=text if score >= min_score else "",
            bbox=_quad_to_bbox(box, k),
            confidence=float(score),
        )
        for box, text, score in zip(result.boxes, result.txts, result.scores, strict=True)
    ]
    return sort_lines(lines)


def detect_lines(
    image: Image.Image, options: RapidOCREngineOptions | None = None
) -> list[TextLine]:
    """Text line boxes only (no recognition): cheap input for layout on scans."""
    model, lock = _model(options or RapidOCREngineOptions())
    array, k = _model_input(image)
    with lock:  # RapidOCR keeps per-call flags on the instance: always pass all three
        result = model(array, use_det=True, use_cls=False, use_rec=False)
    boxes = getattr(result, "boxes", None)
    if boxes is None:
        return []
    return sort_lines([TextLine(text="", bbox=_quad_to_bbox(box, k)) for box in boxes])


def sort_lines(lines: list[TextLine]) -> list[TextLine]:
    """Top-down, then left-right for lines sharing a row (their vertical centres are close)."""
    ordered = sorted(lines, key=lambda ln: (ln.bbox[1] + ln.bbox[3]) / 2)
    rows: list[list[TextLine]] = []
    for line in ordered:
        mid = (line.bbox[1] + line.bbox[3]) / 2
        height = line.bbox[3] - line.bbox[1]
        if rows:
            last = rows[-1][-1]
            last_mid = (last.bbox[1] + last.bbox[3]) / 2
            if abs(mid - last_mid) < 0.5 * max(height, last.bbox[3] - last.bbox[1]):
                rows[-1].append(line)
                continue
        rows.append([line])
    return [line for row in rows for line in sorted(row, key=lambda ln: ln.bbox[0])]


class RapidOCREngine(EmbeddedEngine):
    """Block recognition with the embedded PP-OCR models (no Hangul in their dictionary)."""

    name = "rapidocr"

    def __init__(self, options: RapidOCREngineOptions | None = None) -> None:
        self.options = options or RapidOCREngineOptions()

    async def recognize(self, request: BlockRequest) -> Recognition:
        start = time.perf_counter()
        block = request.block
        if (
            block.source == "ocr"
            and block.kind in TEXT_KINDS
            and block.lines
            and all(ln.text for ln in block.lines)
        ):
            scores = [ln.confidence for ln in block.lines]
            return Recognition(
                text=join_lines(block.lines),
                engine=self.name,
                confidence=round(float(np.mean(scores)), 4),
                detail="lines read during layout",
            )
        try:
            lines = await asyncio.to_thread(ocr_lines, request.image, self.options)
        except Exception as exc:  # onnxruntime and OpenCV raise assorted types
            raise EngineError(
                f"rapidocr failed: {exc}", file=request.file, page=request.page
            ) from exc
        confidence = float(np.mean([ln.confidence for ln in lines])) if lines else 0.0
        lines = [ln for ln in lines if ln.text.strip()]
        return Recognition(
            text=join_lines(lines),
            engine=self.name,
            confidence=round(confidence, 4),
            latency_s=time.perf_counter() - start,
        )

    async def aclose(self) -> None:
        return None
