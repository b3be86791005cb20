"""The output of a zh-Hant scan keeps the characters the engine reads: no simplified or other
variant form appears that raw RapidOCR, run on the same raster, did not produce (folding
variants is for comparisons only). The pages are the real statute scans where reading at a
coarser detection size once turned 條 into 条 and 規 into 规."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from rapidocr import RapidOCR

from pagereader.pipeline import make_context, parse_page
from pagereader.render.markdown import page_markdown
from pagereader.sources import open_source

from shared_data import shared_root

LEGAL = shared_root() / "eval" / "real_legal"
# Simplified (or Japanese) forms of characters these statutes print in their traditional form.
OTHER_FORMS = set("条规为爲内説说关于与应会机务权国时动处减须实现总项则经发这门问变从仅绝")


def read(file: Path, page: int) -> tuple[str, str]:
    """(pagereader's Markdown, raw RapidOCR's text with its default settings) of one page."""
    assert LEGAL.is_dir(), f"{LEGAL} is missing: the shared evaluation data sits beside the repo"

    async def run() -> tuple[str, str]:
        ctx = make_context()
        source = open_source(
            file, password=None, max_image_pixels=ctx.options.render.max_image_pixels
        )
        try:
            result, rendered = await parse_page(ctx, source, page)
        finally:
            source.close()
        assert rendered is not None
        raw = RapidOCR(params={"Global.log_level": "warning"})(
            np.asarray(rendered.image.convert("RGB"))
        )
        return page_markdown(result.blocks, result.notes), "".join(getattr(raw, "txts", None) or ())

    return asyncio.run(run())


@pytest.mark.parametrize(("stem", "page"), [("B0000001", 2), ("N0030001", 1)])
def test_no_variant_form_the_engine_did_not_read(stem: str, page: int) -> None:
    output, raw = read(LEGAL / f"{stem}-scan-heavy.pdf", page)
    reference = (LEGAL / f"{stem}.p{page}.ref.txt").read_text(encoding="utf-8")
    assert "條" in reference and len(output) > 0.8 * len(reference)
    out_counts, raw_counts = Counter(output), Counter(raw)
    added = {
        ch: out_counts[ch] - raw_counts[ch] for ch in OTHER_FORMS if out_counts[ch] > raw_counts[ch]
    }
    assert added == {}, f"forms the engine did not read: {added}"
    # and the article numbers the engine read are all in the output
    assert out_counts["條"] >= raw_counts["條"]
