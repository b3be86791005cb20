"""Options: nested, validated pydantic models, loadable from a TOML config file.

Engines are a tagged union on ``kind``; routes map ``"page_class.block_kind"`` (either part may be
``"*"``) to a chain of engine names: the first that answers wins, the rest are fallbacks. Built-in
engine names need no configuration: ``textlayer``, ``rapidocr``, ``tesseract``, ``grid`` (ruled
tables) and ``ocr`` (the embedded OCR chosen from the page's script).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from pagereader.errors import ConfigError

BUILTIN_ENGINES = frozenset({"textlayer", "rapidocr", "tesseract", "grid", "ocr"})
PAGE_CLASSES = ("digital", "scan", "dense")


class _Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RenderOptions(_Options):
    """How pages become pixels."""

    dpi: int = Field(200, ge=36, le=600, description="raster resolution of PDF pages")
    max_image_pixels: int = Field(
        100_000_000, ge=1_000_000, description="refuse images larger than this (bomb guard)"
    )


class ClassifyOptions(_Options):
    """Thresholds of the decision layer (see stages/classify.py)."""

    min_text_chars: int = Field(8, ge=0)
    max_garbage_ratio: float = Field(0.05, ge=0.0, le=1.0)
    invisible_text_share: float = Field(0.8, ge=0.0, le=1.0)
    dense_line_count: int = Field(120, ge=1)
    small_font_pt: float = Field(7.5, gt=0)
    dense_small_font_share: float = Field(0.5, ge=0.0, le=1.0)
    dense_table_fraction: float = Field(0.3, ge=0.0, le=1.0)
    sparse_line_count: int = Field(15, ge=0)
    min_pixels: int = Field(112_896, ge=3136)
    sparse_max_pixels: int = Field(501_760, ge=3136)
    normal_max_pixels: int = Field(1_003_520, ge=3136)
    dense_max_pixels: int = Field(2_007_040, ge=3136)


class TextLayerEngineOptions(_Options):
    kind: Literal["textlayer"] = "textlayer"


class RapidOCREngineOptions(_Options):
    """The embedded PP-OCR engine; defaults are the fast settings measured in DESIGN.md."""

    kind: Literal["rapidocr"] = "rapidocr"
    det_limit_side_len: int = Field(960, ge=320, le=4096)
    use_cls: bool = False
    threads: int = Field(2, ge=1, le=64)


class TesseractEngineOptions(_Options):
    kind: Literal["tesseract"] = "tesseract"
    psm: int = Field(6, ge=0, le=13)
    binary: str = "tesseract"
    timeout_s: float = Field(60.0, gt=0)


class OpenAIEngineOptions(_Options):
    """Any OpenAI-compatible chat endpoint (vLLM)."""

    kind: Literal["openai"] = "openai"
    base_url: str
    model: str
    api_key: str = "EMPTY"
    prompt_style: Literal["paddleocr-vl", "qwen-vl"] = "paddleocr-vl"
    max_concurrency: int = Field(16, ge=1, le=4096)
    timeout_s: float = Field(60.0, gt=0)
    retries: int = Field(2, ge=0, le=10)
    max_tokens: dict[str, int] = Field(default_factory=dict)
    prompts: dict[str, str] = Field(default_factory=dict)


EngineOptions = Annotated[
    TextLayerEngineOptions | RapidOCREngineOptions | TesseractEngineOptions | OpenAIEngineOptions,
    Field(discriminator="kind"),
]


class RouterOptions(_Options):
    """Router mode: every request goes to one vLLM Semantic Router endpoint."""

    base_url: str
    model: str = "vllm-sr/auto"
    api_key: str = "EMPTY"


class BudgetOptions(_Options):
    page_deadline_s: float | None = Field(None, gt=0)
    pages_in_flight: int = Field(2, ge=1, le=256)
    target_page_s: float = Field(5.0, gt=0)


class OutputOptions(_Options):
    overlays: bool = True
    markdown_page_breaks: bool = True


VerifyRemedy = Literal["retry", "escalate", "fallback", "review"]

DEFAULT_REMEDIES: dict[str, list[VerifyRemedy]] = {
    "empty": ["retry", "fallback", "escalate", "review"],
    "truncation": ["retry", "fallback", "escalate", "review"],
    "reasoning": ["retry", "fallback", "escalate", "review"],
    "repetition": ["retry", "fallback", "escalate", "review"],
    "script": ["fallback", "escalate", "retry", "review"],
    "critical": ["fallback", "retry", "escalate", "review"],
    "agreement": ["fallback", "escalate", "retry", "review"],
    "table": ["retry", "escalate", "review"],
}


class ContextOptions(_Options):
    """The optional page context pass: one whole-page request for a title and a summary."""

    engine: str | None = None
    max_pixels: int = Field(1_003_520, ge=3136)


class VerifyOptions(_Options):
    """The verifier (see checks/ and stages/verify.py): thresholds, references and remedies.

    ``agreement_min`` is the least character consistency with the text layer per block kind;
    ``agreement_min_ocr`` the same against the embedded OCR (itself imperfect, so looser).
    ``critical_patterns`` replaces the built-in patterns of the languages it names.
    ``remedies`` lists, per check, the actions to try in order; the first that is possible
    for the block is taken (retry needs a pixel-sensitive engine, escalate a next engine in the
    route, fallback a trusted reference), and ``review`` always is.
    """

    enabled: bool = True
    ocr_reference_on_scans: bool = True
    reference_engine: str = "ocr"
    fallback_to_ocr: bool = False
    agreement_min: dict[str, float] = Field(
        default_factory=lambda: {
            "title": 0.8,
            "text": 0.85,
            "list": 0.85,
            "caption": 0.8,
            "header": 0.6,
            "footer": 0.6,
            "table": 0.7,
        }
    )
    agreement_min_ocr: dict[str, float] = Field(
        default_factory=lambda: {
            "title": 0.6,
            "text": 0.7,
            "list": 0.7,
            "caption": 0.6,
            "header": 0.4,
            "footer": 0.4,
            "table": 0.5,
        }
    )
    critical_patterns: dict[str, list[str]] = Field(default_factory=dict)
    repetition_min_span: int = Field(40, ge=4)
    compression_ratio_max: float = Field(4.5, gt=1.0)
    compression_min_chars: int = Field(300, ge=50)
    reasoning_markers: list[str] = Field(default_factory=list)
    max_retries: int = Field(1, ge=0, le=5)
    retry_pixel_factor: float = Field(2.0, gt=1.0, le=16.0)
    retry_max_pixels: int = Field(4_014_080, ge=3136)
    pixel_blind_engines: list[str] = Field(
        default_factory=lambda: ["textlayer", "grid", "ocr", "rapidocr", "tesseract"]
    )
    remedies: dict[str, list[VerifyRemedy]] = Field(
        default_factory=lambda: {k: list(v) for k, v in DEFAULT_REMEDIES.items()}
    )
    max_steps: int = Field(4, ge=1, le=16)
    mark_review: bool = True


DEFAULT_ROUTES: dict[str, list[str]] = {
    "digital.*": ["textlayer", "ocr"],
    "digital.figure": ["ocr"],
    "dense.*": ["textlayer", "ocr"],
    "scan.*": ["ocr"],
    "*.table": ["grid", "textlayer", "ocr"],
}


class Options(_Options):
    """Everything a parse needs to know; defaults run the embedded CPU engines."""

    render: RenderOptions = Field(default_factory=RenderOptions)
    classify: ClassifyOptions = Field(default_factory=ClassifyOptions)
    engines: dict[str, EngineOptions] = Field(default_factory=dict)
    routes: dict[str, list[str]] = Field(default_factory=lambda: dict(DEFAULT_ROUTES))
    router: RouterOptions | None = None
    budget: BudgetOptions = Field(default_factory=BudgetOptions)
    output: OutputOptions = Field(default_factory=OutputOptions)
    verify: VerifyOptions = Field(default_factory=VerifyOptions)
    context: ContextOptions = Field(default_factory=ContextOptions)
    lang: Literal["en", "zh-Hant", "ko"] | None = None
    password: str | None = None
    pages: tuple[int, ...] | None = None

    @field_validator("routes")
    @classmethod
    def _check_route_keys(cls, routes: dict[str, list[str]]) -> dict[str, list[str]]:
        from pagereader.types import BLOCK_KINDS

        for key, chain in routes.items():
            page_class, _, kind = key.partition(".")
            if page_class not in (*PAGE_CLASSES, "*") or kind not in (*BLOCK_KINDS, "*"):
                raise ValueError(
                    f"route {key!r}: expected 'page_class.block_kind' with page_class in "
                    f"{PAGE_CLASSES} or '*' and block_kind in {BLOCK_KINDS} or '*'"
                )
            if not isinstance(chain, list):
                raise ValueError(f"route {key!r}: expected a list of engine names")
        return routes

    def model_post_init(self, __context: object) -> None:
        known = BUILTIN_ENGINES | set(self.engines)
        for key, chain in self.routes.items():
            unknown = [name for name in chain if name not in known]
            if unknown:
                raise ValueError(f"route {key!r} names unknown engines {unknown}")
        if self.context.engine is not None and self.context.engine not in known:
            raise ValueError(f"context.engine names an unknown engine {self.context.engine!r}")

    def with_overrides(self, **changes: object) -> Options:
        """A copy with top-level fields replaced (validated again)."""
        data = self.model_dump()
        data.update({k: v for k, v in changes.items() if v is not None})
        return Options.model_validate(data)


def load_config(path: str | Path) -> Options:
    """Read and validate a TOML config; routes are merged over the embedded defaults."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError("config file not found", file=path) from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}", file=path) from exc
    return options_from_mapping(raw, source=path)


def options_from_mapping(raw: dict[str, object], source: str | Path = "<config>") -> Options:
    """Validate a mapping (a parsed config) into Options, with readable errors."""
    data = dict(raw)
    routes = data.get("routes")
    if isinstance(routes, dict):
        data["routes"] = {**DEFAULT_ROUTES, **routes}
    try:
        return Options.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'config'}: {err['msg']}"
            for err in exc.errors()
        )
        raise ConfigError(f"invalid config: {problems}", file=source) from exc
