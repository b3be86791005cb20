"""The decision layer: cheap features of a page decide what work it needs.

``digital``: the text layer is trustworthy; use it and OCR nothing but images.
``scan``: no usable text layer (none, garbage glyphs, CID text without a Unicode map, or an
invisible layer left by an earlier OCR over a page image).
``dense``: many small lines or a big ruled table; later VLM requests get more pixels.

``compute_features`` reads the page; ``decide_page`` is pure (features and options in, decision out)
so that tests feed it values.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterable, Sequence

import cv2
import numpy as np

from pagereader.config.options import ClassifyOptions
from pagereader.layout.table_grid import find_ruled_tables
from pagereader.runtime import Runtime
from pagereader.sources.base import RenderedPage
from pagereader.stages.detection_size import detection_options
from pagereader.stages.engine_routes import resolve_route
from pagereader.stages.native import classify_native
from pagereader.stages.page_budget import text_layer_over
from pagereader.stages.script import SCRIPT_OF_LANG, upright_and_script
from pagereader.stages.state import PageState
from pagereader.text.chars import count_scripts, script_of
from pagereader.types import (
    BBox,
    ErrorItem,
    PageClass,
    PageDecision,
    PageFeatures,
    Script,
    TextLine,
)

_ANALYSIS_SIDE = 1600


Analysis = tuple[np.ndarray, float]
"""A page's grayscale copy for measuring, and its pixels per page unit."""


def analysis_copy(page: RenderedPage) -> Analysis:
    """A grayscale copy at most _ANALYSIS_SIDE on its long side (made once per page: grey
    first, then shrunk, a third of the work of shrinking the colour page)."""
    image = page.image if page.image.mode == "L" else page.image.convert("L")
    factor = min(1.0, _ANALYSIS_SIDE / max(1, image.width, image.height))
    if factor < 1.0:
        image = image.resize((int(image.width * factor), int(image.height * factor)))
    return np.asarray(image), page.scale * factor


def count_rulings(gray: np.ndarray) -> int:
    """Long horizontal and vertical strokes: the grid of a ruled table."""
    binary = cv2.adaptiveThreshold(
        255 - gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 15, -2
    )
    h, w = gray.shape
    total = 0
    for size in ((max(40, w // 8), 1), (1, max(40, h // 12))):
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, size)
        lines = cv2.morphologyEx(binary, cv2.MORPH_OPEN, kernel)
        count, _ = cv2.connectedComponents(lines)
        total += count - 1
    return int(total)


def ink_rows(gray: np.ndarray, unit_scale: float) -> tuple[int, float]:
    """Text rows from the horizontal ink profile: (row count, median row height in units)."""
    _, binary = cv2.threshold(gray, 0, 1, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    profile = binary.sum(axis=1) > max(2, 0.004 * gray.shape[1])
    heights: list[int] = []
    run = 0
    for on in profile:
        if on:
            run += 1
        elif run:
            heights.append(run)
            run = 0
    if run:
        heights.append(run)
    heights = [h for h in heights if h >= 3]
    if not heights:
        return 0, 0.0
    return len(heights), float(np.median(heights)) / unit_scale


def find_tables(page: RenderedPage, analysis: Analysis | None = None) -> list[BBox]:
    """Ruled tables of the page (page units), found on the analysis copy."""
    gray, unit_scale = analysis or analysis_copy(page)
    return [
        (b[0] / unit_scale, b[1] / unit_scale, b[2] / unit_scale, b[3] / unit_scale)
        for b in find_ruled_tables(gray)
    ]


def text_layer_probe(page: RenderedPage) -> PageFeatures:
    """The text layer's quantity and quality and the image share: enough to judge trust."""
    area = max(1.0, page.width * page.height)
    stats = page.stats
    garbage = stats.garbage_chars + stats.unicode_map_errors
    return PageFeatures(
        text_chars=stats.chars,
        text_coverage=round(min(1.0, sum(_area(ln.bbox) for ln in page.lines) / area), 4),
        garbage_ratio=round(garbage / stats.chars if stats.chars else 0.0, 4),
        image_fraction=round(min(1.0, sum(_area(b) for b in page.image_boxes) / area), 4),
    )


def compute_features(
    page: RenderedPage,
    tables: Sequence[BBox] = (),
    use_text_layer: bool = True,
    analysis: Analysis | None = None,
) -> PageFeatures:
    """Measure a page: text layer quantity and quality, images, line sizes, ruled tables.

    Line counts and sizes come from the text layer when it is trusted, otherwise from the ink
    of the raster (a garbage layer's boxes say nothing reliable about the print)."""
    area = max(1.0, page.width * page.height)
    probe = text_layer_probe(page)
    gray, unit_scale = analysis or analysis_copy(page)
    sizes = [ln.font_size for ln in page.lines if ln.font_size > 0] if use_text_layer else []
    if sizes:
        line_count = len(page.lines)
        median_size = float(np.median(sizes))
    else:
        line_count, row_height = ink_rows(gray, unit_scale)
        median_size = row_height * 72.0 / page.units_per_inch / 1.2 if row_height else 0.0
    # small_font_share needs the decision's threshold: classify_page fills it in
    return probe.model_copy(
        update=dict(
            line_count=line_count,
            median_font_size=round(median_size, 2),
            ruling_lines=count_rulings(gray),
            table_fraction=round(min(1.0, sum(_area(b) for b in tables) / area), 4),
            ink_fraction=round(float((gray < 128).mean()), 4),
        )
    )


def small_font_share(lines: Iterable[TextLine], threshold_pt: float) -> float:
    """Share of text (by characters) set below ``threshold_pt``."""
    total = small = 0
    for line in lines:
        n = len(line.text)
        total += n
        if 0 < line.font_size < threshold_pt:
            small += n
    return small / total if total else 0.0


def _area(b: tuple[float, float, float, float]) -> float:
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def text_layer_trusted(
    features: PageFeatures, invisible_share: float, options: ClassifyOptions
) -> tuple[bool, str]:
    """Whether the page's own text can be used as is, and why."""
    too_large = text_layer_over(features.text_chars, options)
    if too_large:
        return False, too_large
    if features.text_chars < options.min_text_chars:
        if features.text_chars and not features.garbage_ratio and features.image_fraction < 0.5:
            return True, (
                f"text layer has {features.text_chars} characters: short but clean, and no page "
                "image to read instead (a title slide): use it"
            )
        return False, f"text layer has {features.text_chars} characters: no usable text layer"
    if features.garbage_ratio > options.max_garbage_ratio:
        return False, (
            f"text layer is garbage ({features.garbage_ratio:.0%} private-use, replacement or "
            "unmapped CID glyphs): treat as a scan"
        )
    if invisible_share >= options.invisible_text_share and features.image_fraction > 0.5:
        return False, (
            f"{invisible_share:.0%} of the text is invisible over a page image (an earlier OCR's "
            "layer): read the image instead"
        )
    return True, (
        f"text layer has {features.text_chars} characters, {features.garbage_ratio:.1%} garbage"
    )


def decide_page(
    features: PageFeatures, trusted: bool, trust_reason: str, options: ClassifyOptions
) -> PageDecision:
    """Class, pixel budget and reasons for a page (pure)."""
    reasons = [trust_reason]
    dense_why = _dense_reason(features, options)
    page_class: PageClass
    if dense_why:
        page_class = "dense"
        reasons.append(dense_why)
    elif trusted:
        page_class = "digital"
    else:
        page_class = "scan"
    if page_class == "dense":
        max_pixels = options.dense_max_pixels
        reasons.append(f"dense: max_pixels {max_pixels:,} for small print")
    elif features.line_count <= options.sparse_line_count:
        max_pixels = options.sparse_max_pixels
        reasons.append(f"{features.line_count} text lines: sparse, max_pixels {max_pixels:,}")
    else:
        max_pixels = options.normal_max_pixels
        reasons.append(f"{features.line_count} text lines: max_pixels {max_pixels:,}")
    if features.image_fraction > 0:
        reasons.append(f"images cover {features.image_fraction:.0%} of the page")
    return PageDecision(
        page_class=page_class,
        max_pixels=max_pixels,
        min_pixels=min(options.min_pixels, max_pixels),
        reasons=tuple(reasons),
        features=features,
    )


def _dense_reason(features: PageFeatures, options: ClassifyOptions) -> str:
    if features.line_count >= options.dense_line_count:
        return f"{features.line_count} text lines (>= {options.dense_line_count}): dense"
    if (
        features.small_font_share >= options.dense_small_font_share
        and features.line_count >= options.sparse_line_count
    ):
        return (
            f"{features.small_font_share:.0%} of the text under {options.small_font_pt} pt: dense"
        )
    if features.table_fraction >= options.dense_table_fraction:
        return f"ruled tables cover {features.table_fraction:.0%} of the page: dense"
    return ""


def classify_page(
    page: RenderedPage, options: ClassifyOptions
) -> tuple[PageDecision, bool, list[BBox]]:
    """Features then decision for a rendered page; also whether its text layer is trusted and
    the ruled tables found (the layout stage reuses them)."""
    analysis = analysis_copy(page)
    tables = find_tables(page, analysis)
    trusted, why = text_layer_trusted(text_layer_probe(page), page.invisible_text_share, options)
    features = compute_features(page, tables, use_text_layer=trusted, analysis=analysis)
    share = _small_share(page, features, options, trusted)
    features = features.model_copy(update={"small_font_share": round(share, 4)})
    return decide_page(features, trusted, why, options), trusted, tables


def _small_share(
    page: RenderedPage, features: PageFeatures, options: ClassifyOptions, trusted: bool
) -> float:
    if trusted and any(ln.font_size > 0 for ln in page.lines):
        return small_font_share(page.lines, options.small_font_pt)
    if 0 < features.median_font_size < options.small_font_pt:
        return 1.0
    return 0.0


def _route_head(ctx: Runtime, page_class: str) -> str:
    chain = resolve_route(ctx.options.routes, page_class, "text")
    return chain[0] if chain else ""


def _upright_script(
    ctx: Runtime, state: PageState, trusted: bool, font_size_pt: float
) -> tuple[Script, str]:
    """The page's script and why. With neither ``--lang`` nor a trusted text layer to say it,
    the OCR's orientation reading says it, and the page is turned upright in ``state``. Its
    lines are detected at the size the layout reads them at (detection_size.py, from the
    measured type size ``font_size_pt``), and the detection is kept for the layout stage."""
    if ctx.options.lang:
        return SCRIPT_OF_LANG[ctx.options.lang], f"--lang {ctx.options.lang}"
    if trusted:
        counts = count_scripts(line.text for line in state.rendered.lines)
        return script_of(counts), f"text layer letters: {counts}"
    options = detection_options(state.rendered, font_size_pt, ctx.options.ocr)
    upright = upright_and_script(state.rendered, ctx.capabilities, options)
    state.rendered, state.detection = upright.page, upright.detection
    if upright.unverified:  # never silently unread: the page is partial and says why
        state.errors.append(
            ErrorItem(
                file=state.rendered.file,
                page=state.rendered.index,
                stage="classify",
                message=upright.unverified,
                hint=f"to read Korean, install Tesseract's Korean model: {upright.install}",
            )
        )
    return upright.script, upright.reason


def _drop_large_layer(state: PageState, options: ClassifyOptions) -> None:
    """A text layer over the bound leaves the page: no later stage walks it, nor keeps it."""
    too_large = text_layer_over(state.rendered.stats.chars, options)
    if too_large:
        state.rendered = dataclasses.replace(state.rendered, lines=())
        state.warnings.append(too_large)


def _classify(ctx: Runtime, state: PageState) -> PageState:
    state.budget.check("classify")
    _drop_large_layer(state, ctx.options.classify)
    before = state.rendered
    if before.native is not None:
        return classify_native(state, before.native, ctx.options.classify)
    # the features first: their type size sets the size of the page's one line detection
    decision, trusted, tables = classify_page(before, ctx.options.classify)
    state.budget.check("classify")
    script, script_reason = _upright_script(ctx, state, trusted, decision.features.median_font_size)
    state.budget.check("classify")
    if state.rendered is not before:  # turned upright: measure the page as it now stands
        decision, trusted, tables = classify_page(state.rendered, ctx.options.classify)
    state.table_boxes = tables
    head = _route_head(ctx, decision.page_class)
    if head == "textlayer" and not trusted:
        head = "ocr"
    engine, engine_reason = head, f"route {decision.page_class}.text"
    if head == "ocr":
        engine, engine_reason = ctx.capabilities.engine_for_script(script)
    state.decision = decision.model_copy(
        update={
            "script": script,
            "script_reason": script_reason,
            "text_engine": engine,
            "engine_reason": engine_reason,
        }
    )
    state.trusted_text = trusted
    return state


async def run_classify(ctx: Runtime, state: PageState) -> PageState:
    """Decide the page's class, pixel budget, script and text engine."""
    return await asyncio.to_thread(_classify, ctx, state)
