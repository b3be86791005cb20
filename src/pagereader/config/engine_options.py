"""The options of the engines (``[engines.NAME]``, a tagged union on ``kind``) and of router
mode (``[router]``, ``[router.cache]``): what each endpoint or embedded model is and how it is
called. options.py assembles them with the rest and re-exports them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator

from pagereader.types import Task

#: The OpenAI-compatible servers whose extra body fields pagereader speaks (served_fields.py).
ServerKind = Literal["vllm", "mlx-vlm"]


class OptionsModel(BaseModel):
    """Every options table: unknown keys are an error, values never change once read."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class TextLayerEngineOptions(OptionsModel):
    kind: Literal["textlayer"] = Field(
        "textlayer", description="the PDF's own text in the block's box"
    )


class RapidOCREngineOptions(OptionsModel):
    """The embedded PP-OCR engine; defaults are the fast settings measured in DESIGN.md."""

    kind: Literal["rapidocr"] = Field(
        "rapidocr", description="the embedded PP-OCR models, on the CPU"
    )
    det_limit_side_len: int = Field(
        960, ge=320, le=4096, description="longest side of the detector's input (px)"
    )
    use_cls: bool = Field(False, description="run the text-direction classifier")
    threads: int = Field(2, ge=1, le=64, description="CPU threads of each model call")
    backend: Literal["auto", "openvino", "onnxruntime"] = Field(
        "auto",
        description=(
            "the inference runtime of the shipped ONNX models: OpenVINO runs them 1.8-2.7x "
            "faster in bf16, so auto takes it where the CPU has bf16, onnxruntime elsewhere"
        ),
    )


class TesseractEngineOptions(OptionsModel):
    kind: Literal["tesseract"] = Field("tesseract", description="Debian's tesseract-ocr")
    psm: int = Field(6, ge=0, le=13, description="page segmentation mode for blocks (6: one block)")
    binary: str = Field("tesseract", description="the tesseract program (name on PATH or path)")
    timeout_s: float = Field(60.0, gt=0, description="seconds one call may take")


class OpenAIEngineOptions(OptionsModel):
    """Any OpenAI-compatible chat endpoint (vLLM, mlx-vlm).

    A failure of this engine that the route's next engine covers (a refusal, an unreachable
    server, a 5xx) is an error of the document, and the run exits non-zero, unless
    ``fallback_on_refusal`` says the fallback's answer is acceptable: a deployment that meant
    to read on GPUs must not quietly read on the CPU."""

    kind: Literal["openai"] = Field(
        "openai", description="any OpenAI-compatible chat endpoint (vLLM)"
    )
    base_url: str = Field(description="the endpoint's URL, up to /v1")
    model: str = Field(description="the served model's name (as /v1/models lists it)")
    api_key: SecretStr = Field(
        SecretStr("EMPTY"), description="the endpoint's key (never printed or stored)"
    )
    prompt_style: Literal["paddleocr-vl", "qwen-vl"] = Field(
        "paddleocr-vl", description='task prompts: paddleocr-vl ("OCR:", ...) or qwen-vl'
    )
    max_concurrency: int = Field(
        16, ge=1, le=4096, description="requests in flight to this endpoint"
    )
    timeout_s: float = Field(60.0, gt=0, description="seconds one request may take")
    retries: int = Field(
        2, ge=0, le=10, description="retries of connect errors, 429 and 5xx, with backoff"
    )
    max_tokens: Mapping[Task, int] = Field(
        default_factory=dict, description="the most output tokens, per task"
    )
    prompts: Mapping[Task, str] = Field(
        default_factory=dict, description="a prompt per task, replacing the style's own"
    )
    image_factor: int = Field(
        28,
        ge=1,
        le=64,
        description=(
            "patch size x spatial merge of the served model (28: Qwen2/2.5-VL, PaddleOCR-VL; "
            "32: Qwen3-VL): crops above max_pixels are shrunk by the image processor's own "
            "rule before upload, so the server never gets more pixels than it will use"
        ),
    )
    server: ServerKind = Field(
        "vllm",
        description=(
            "which server answers, for the fields it reads beyond the OpenAI schema: vllm "
            "(mm_processor_kwargs, chat_template_kwargs) or mlx-vlm (mlx_vlm.server: top-level "
            "min_pixels, max_pixels, enable_thinking); each ignores the other's pixel bounds"
        ),
    )
    fallback_on_refusal: bool = Field(
        False,
        description=(
            "accept the route's next engine when this one refuses, is unreachable or fails "
            "(the failure is still reported as a warning) instead of failing the run"
        ),
    )
    dialect: str | None = Field(
        None,
        description=(
            "the answer format of a whole-page request (qwenvl-html, qwen-spotting, dots-ocr, "
            "deepseek-ocr, chandra, olmocr, markdown, paddleocr-vl): needed on a page route "
            '("scan.page"); unset, the engine reads blocks only'
        ),
    )
    coordinates: Literal["pixels", 1000, 999] | None = Field(
        None,
        description=(
            "the boxes of a whole-page answer: absolute pixels of the resized input, or a "
            "0-1000 / 0-999 grid; unset: the dialect's own, except that a model whose name "
            "holds Qwen3-VL answers the pixel dialects on the 0-1000 grid"
        ),
    )


EngineOptions = Annotated[
    TextLayerEngineOptions | RapidOCREngineOptions | TesseractEngineOptions | OpenAIEngineOptions,
    Field(discriminator="kind"),
]


class RouterCacheOptions(OptionsModel):
    """The router's response cache (``[router.cache]``): exact matches only, keyed on the
    crop's digest in the routing tag. Off unless the section is set."""

    backend: Literal["memory", "redis", "valkey"] = Field(description="where answers are kept")
    address: str | None = Field(
        None, description="host:port of the Redis or Valkey server (those backends only)"
    )
    ttl_s: int = Field(86_400, ge=60, le=31_536_000, description="how long an answer is kept")
    max_entries: int = Field(100_000, ge=100, le=100_000_000, description="the most answers kept")

    @model_validator(mode="after")
    def _check_address(self) -> RouterCacheOptions:
        if self.backend == "memory":
            if self.address is not None:
                raise ValueError('address is for the redis and valkey backends, not "memory"')
            return self
        if self.address is None:
            raise ValueError(f'backend "{self.backend}" needs address = "host:port"')
        host, _, port = self.address.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536 or "/" in host:
            raise ValueError(f"address must be host:port, got {self.address!r}")
        return self

    def host_port(self) -> tuple[str, int]:
        """The server's host and port (redis and valkey only)."""
        host, _, port = (self.address or "").rpartition(":")
        return host.strip("[]"), int(port)


class RouterOptions(OptionsModel):
    """Router mode: every request goes to one vLLM Semantic Router endpoint."""

    base_url: str = Field(description="the router's URL, up to /v1")
    model: str = Field("vllm-sr/auto", description="the model name that lets the router choose")
    api_key: SecretStr = Field(
        SecretStr("EMPTY"), description="the router's key (never printed or stored)"
    )
    cache: RouterCacheOptions | None = None
