"""Pictures of the blocks: each page with its blocks outlined and labelled by kind and order."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from pagereader.types import BlockResult

COLORS: dict[str, str] = {
    "title": "#d62728",
    "text": "#1f77b4",
    "table": "#2ca02c",
    "figure": "#9467bd",
    "formula": "#8c564b",
    "caption": "#e377c2",
    "header": "#7f7f7f",
    "footer": "#7f7f7f",
    "list": "#17becf",
}
_MAX_WIDTH = 1400


def draw_overlay(image: Image.Image, scale: float, results: Sequence[BlockResult]) -> Image.Image:
    """A copy of the page at most 1400 px wide with labelled block outlines. A wider page is
    shrunk by a whole factor (each overlay pixel the mean of a k x k square): a tenth of the
    time of a resampling filter, and the page itself is never copied at full size."""
    shrink = max(1, math.ceil(image.width / _MAX_WIDTH))
    canvas = image.reduce(shrink) if shrink > 1 else image.copy()
    if canvas.mode != "RGB":
        canvas = canvas.convert("RGB")
    draw = ImageDraw.Draw(canvas)
    font = ImageFont.load_default(size=max(12, canvas.width // 90))
    k = scale / shrink
    for result in results:
        block = result.block
        color = COLORS.get(block.kind, "#000000")
        x0, y0, x1, y1 = (v * k for v in block.bbox)
        width = 3 if result.verdict.action == "accept" else 5
        draw.rectangle((x0, y0, x1, y1), outline=color, width=width)
        label = f"{block.order} {block.kind}"
        if result.verdict.action != "accept":
            label += f" [{result.verdict.action}]"
        box = draw.textbbox((x0, y0), label, font=font)
        draw.rectangle((box[0] - 1, box[1] - 1, box[2] + 2, box[3] + 1), fill=color)
        draw.text((x0, y0), label, fill="white", font=font)
    return canvas
