"""The embedded OCR: PP-OCR det/rec models shipped inside the rapidocr wheel, run by OpenVINO
(on CPUs with bf16) or onnxruntime.

Loading the models takes seconds, so one instance per settings lives for the whole process;
calls are serialised on it (one call already uses the threads it is given). OpenVINO computes
in bf16 where the CPU has it: 1.8x faster recognition, 2.7x faster detection here, the same
text on the statute pages. Without bf16 it is no faster than onnxruntime and needs more memory,
so ``auto`` takes onnxruntime there.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import threading
import time
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np
from PIL import Image

from pagereader.config.options import RapidOCREngineOptions
from pagereader.engines.base import BlockRequest, EmbeddedEngine
from pagereader.engines.det_strips import detect_in_strips
from pagereader.errors import ConfigError, EngineError
from pagereader.layout.line_text import join_lines
from pagereader.layout.picture_lines import picture_reading_lines
from pagereader.layout.quiet import load_quietly
from pagereader.protocols import Detection, LineRead, detected_lines
from pagereader.types import TEXT_KINDS, Recognition, TextLine

logger = logging.getLogger(__name__)

_MODELS: dict[tuple[bool, int, str], tuple[Any, threading.Lock]] = {}
_MODELS_LOCK = threading.Lock()
_MAX_INPUT_SIDE = 3200


@cache
def cpu_has_bf16() -> bool:
    """Whether OpenVINO finds bf16 arithmetic on this CPU (AVX512-BF16 or AMX)."""
    try:
        from openvino import Core

        return "BF16" in Core().get_property("CPU", "OPTIMIZATION_CAPABILITIES")
    except Exception:  # no openvino, or no CPU plugin: no bf16 to be had
        return False


def inference_backend(options: RapidOCREngineOptions) -> str:
    """The runtime that runs the models: the one asked for, or for ``auto`` OpenVINO where it
    is installed and the CPU has bf16, onnxruntime elsewhere (OpenVINO in f32 is no faster
    and needs more memory: 1.6-1.8 GB at the peak on an 8000-pixel scan, against 1.2-1.4)."""
    if options.backend != "auto":
        return options.backend
    if importlib.util.find_spec("openvino") is None or not cpu_has_bf16():
        return "onnxruntime"
    return "openvino"


def _runtime_params(options: RapidOCREngineOptions) -> dict[str, Any]:
    from rapidocr.utils.typings import EngineType

    backend = inference_backend(options)
    if backend == "onnxruntime":
        return {"EngineConfig.onnxruntime.intra_op_num_threads": options.threads}
    if importlib.util.find_spec("openvino") is None:
        raise ConfigError(
            'ocr backend "openvino" is not installed',
            hint='pip install openvino, or set backend = "onnxruntime"',
        )
    engine = EngineType.OPENVINO
    return {
        "Det.engine_type": engine,
        "Rec.engine_type": engine,
        "Cls.engine_type": engine,
        "EngineConfig.openvino.inference_num_threads": options.threads,
        "EngineConfig.openvino.performance_hint": "LATENCY",
        "EngineConfig.openvino.enable_cpu_pinning": False,
    }


def _model(options: RapidOCREngineOptions) -> tuple[Any, threading.Lock]:
    """The loaded models for ``options``: one set per runtime and threads, whatever the
    detection size (the detector takes its size at each call, under the lock)."""
    key = (options.use_cls, options.threads, inference_backend(options))
    with _MODELS_LOCK:
        if key not in _MODELS:
            from rapidocr import RapidOCR

            params = {
                "Global.use_cls": options.use_cls,
                "Global.log_level": "warning",
                "Global.text_score": 0.0,
                "Det.limit_type": "max",
                "Det.limit_side_len": options.det_limit_side_len,
                **_runtime_params(options),
            }
            model = load_quietly(lambda: RapidOCR(params=params))
            _MODELS[key] = (model, threading.Lock())
        return _MODELS[key]


def load_models(options: RapidOCREngineOptions) -> None:
    """Load (and compile) the detector and recognizer now rather than at their first call."""
    model, lock = _model(options)
    with lock:
        model._load_det_model()
        model._load_rec_model()


def _model_input(image: Image.Image) -> tuple[np.ndarray, float]:
    """The RGB array the detector reads, and its pixels per image pixel. RapidOCR itself shrinks
    any input to its detection side; an image over _MAX_INPUT_SIDE is shrunk to it first, so a
    huge page or crop never gets a full-size array copy (smaller images pass unchanged)."""
    factor = min(1.0, _MAX_INPUT_SIDE / max(1, image.width, image.height))
    if factor < 1.0:
        width = image.width
        size = (max(1, int(width * factor)), max(1, int(image.height * factor)))
        image = image.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)
        factor = image.width / width
    return _rgb_array(image), factor


def _rgb_array(image: Image.Image) -> np.ndarray:
    return np.asarray(image if image.mode == "RGB" else image.convert("RGB"))


def detect(image: Image.Image, options: RapidOCREngineOptions | None = None) -> Detection:
    """PP-OCR text detection alone: the line quads of ``image``."""
    options = options or RapidOCREngineOptions()
    model, lock = _model(options)
    array, k = _model_input(image)
    side = options.det_limit_side_len
    with lock:  # the detector alone: the full pipeline would also cut out every line
        detector = model._load_det_model()

        def run(part: np.ndarray, limit: int) -> np.ndarray:
            detector.limit_side_len = limit
            found = getattr(detector(part), "boxes", None)
            return np.zeros((0, 4, 2), np.float32) if found is None else np.asarray(found)

        boxes = detect_in_strips(run, array, side)
    if len(boxes) == 0:
        return Detection(size=image.size, side=side)
    quads = np.asarray(boxes, dtype=np.float32).reshape(-1, 4, 2) / np.float32(k)
    return Detection(size=image.size, quads=quads, side=side)


def crop_quad(array: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The straightened crop of one line (tall crops turned to lie flat, as PP-OCR does)."""
    from rapidocr.utils.process_img import get_rotate_crop_image

    return np.ascontiguousarray(get_rotate_crop_image(array, quad.astype(np.float32).copy()))


def crop_quads(image: Image.Image, quads: np.ndarray) -> list[np.ndarray]:
    """The straightened crop of each line, cut from ``image`` one line's box at a time, so a
    big page never gets a full-size array copy (192 MB for an 8000-pixel square page)."""
    crops = []
    for quad in quads:
        x0 = max(0, int(np.floor(quad[:, 0].min())))
        y0 = max(0, int(np.floor(quad[:, 1].min())))
        x1 = min(image.width, max(x0 + 1, int(np.ceil(quad[:, 0].max())) + 1))
        y1 = min(image.height, max(y0 + 1, int(np.ceil(quad[:, 1].max())) + 1))
        region = _rgb_array(image.crop((x0, y0, x1, y1)))
        crops.append(crop_quad(region, quad - np.array([x0, y0], dtype=np.float32)))
    return crops


def recognize_crops(
    crops: list[np.ndarray], options: RapidOCREngineOptions | None = None
) -> list[tuple[str, float]]:
    """PP-OCR recognition of line crops: (text, score) each."""
    if not crops:
        return []
    from rapidocr.ch_ppocr_rec import TextRecInput

    model, lock = _model(options or RapidOCREngineOptions())
    with lock:
        result = model._load_rec_model()(TextRecInput(img=crops))
    if result.txts is None:
        return [("", 0.0)] * len(crops)
    return [(str(t), float(s)) for t, s in zip(result.txts, result.scores, strict=True)]


def read_detection(
    image: Image.Image,
    detection: Detection,
    options: RapidOCREngineOptions | None = None,
    min_score: float = 0.5,
) -> list[TextLine]:
    """Recognize the lines of an earlier detection of the same image (no second detection)."""
    read = recognize_crops(crop_quads(image, detection.quads), options)
    return detected_lines(detection, [LineRead(text, score) for text, score in read], min_score)


def ocr_lines(
    image: Image.Image, options: RapidOCREngineOptions | None = None, min_score: float = 0.5
) -> list[TextLine]:
    """Detect and recognize text lines; boxes in the image's pixels, top-down order.

    Lines read with a score under ``min_score`` keep their box with empty text: the box is
    still layout evidence, and another engine may read it.
    """
    return read_detection(image, detect(image, options), options, min_score)


FIGURE_MIN_CHARS = 2


def figure_text(text: str) -> bool:
    """Whether a line read inside a picture is text: at least ``FIGURE_MIN_CHARS`` letters or
    digits (of any script), not a lone glyph among chart marks."""
    return sum(ch.isalnum() for ch in text) >= FIGURE_MIN_CHARS


class RapidOCRLines:
    """The embedded PP-OCR as the decision layer's line detector and its reader of every
    script but Hangul (which its dictionary lacks), at one set of OCR options."""

    name = "rapidocr"
    install = ""

    def __init__(self, options: RapidOCREngineOptions | None = None) -> None:
        self.options = options or RapidOCREngineOptions()
        self.side = self.options.det_limit_side_len

    def detect(self, image: Image.Image) -> Detection:
        return detect(image, self.options)

    def crop(self, image: Image.Image, quads: np.ndarray) -> list[np.ndarray]:
        return crop_quads(image, quads)

    def load(self) -> None:
        load_models(self.options)

    def available(self) -> bool:
        return True

    def read(self, crops: Sequence[np.ndarray]) -> list[LineRead]:
        return [LineRead(text, score) for text, score in recognize_crops(list(crops), self.options)]


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
            and request.script != "hangul"  # Hangul pages are read by Tesseract in layout
            and block.kind in TEXT_KINDS
            and any(ln.text for ln in block.lines)
        ):
            # read once with the page; lines under the score floor stay empty (not re-read)
            scores = [ln.confidence for ln in block.lines]
            return Recognition(
                text=join_lines([ln for ln in block.lines if ln.text]),
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
        if block.kind == "figure":  # bars, markers and ticks read as "■I" are not text
            lines = [ln for ln in lines if figure_text(ln.text)]
            lines = picture_reading_lines(lines, request.image.width)
        return Recognition(
            text=join_lines(lines),
            engine=self.name,
            confidence=round(confidence, 4),
            latency_s=time.perf_counter() - start,
        )

    async def aclose(self) -> None:
        return None
