"""The real statute scans read right on both model runtimes: OpenVINO (the default when
installed, bf16 on CPUs that have it) and onnxruntime (f32). Light scans of the three statutes,
Traditional Chinese in two layouts and Korean: character consistency with the exact page text
at the light-scan bar and the critical tokens (article numbers, modal words) identical."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Literal

import pytest

from pagereader.config.options import Options, RapidOCREngineOptions
from pagereader.engines import registry
from pagereader.evaluate.cases import EvalCase
from pagereader.evaluate.metrics import critical_patterns
from pagereader.evaluate.run_cases import score_text
from pagereader.pipeline import make_context, parse_page
from pagereader.render.markdown import page_markdown
from pagereader.sources import open_source
from pagereader.stages.page_ocr import read_detected_lines
from pagereader.text.chars import char_consistency, normalize

from shared_data import shared_root

LEGAL = shared_root() / "eval" / "real_legal"
PAGES = [("N0030001", 1, "zh-Hant"), ("B0000001", 2, "zh-Hant"), ("constitution_1987", 1, "ko")]


def parse_one(file: Path, page: int, backend: Literal["openvino", "onnxruntime"]) -> str:
    options = Options(ocr=RapidOCREngineOptions(backend=backend))

    async def run() -> str:
        ctx = make_context(options)
        source = open_source(file, password=None, max_image_pixels=64_000_000)
        try:
            result, _ = await parse_page(ctx, source, page)
        finally:
            source.close()
        return page_markdown(result.blocks, result.notes)

    return asyncio.run(run())


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["openvino", "onnxruntime"])
@pytest.mark.parametrize(("stem", "page", "lang"), PAGES)
def test_light_scan_reads_right(
    backend: Literal["openvino", "onnxruntime"], stem: str, page: int, lang: str
) -> None:
    assert LEGAL.is_dir(), f"{LEGAL} is missing: the shared evaluation data sits beside the repo"
    reference = (LEGAL / f"{stem}.p{page}.ref.txt").read_text(encoding="utf-8")
    case = EvalCase(
        dataset="real_legal",
        file=LEGAL / f"{stem}-scan-light.pdf",
        page=page,
        lang=lang,
        reference=reference,
        critical=critical_patterns(lang),
    )
    scores = score_text(case, parse_one(case.file, page, backend))
    assert float(str(scores["char_consistency"])) >= 0.98, scores
    assert scores["critical_ok"], scores["critical_changes"]


def test_korean_lines_read_in_parallel_strips_as_in_one() -> None:
    """Splitting the page's line crops over two Tesseract processes reads the same lines: each
    crop is read on its own row, though Tesseract sizes spaces and adapts over its whole strip,
    so a space or a misread clause number may differ."""
    source = open_source(
        LEGAL / "constitution_1987-scan-light.pdf", password=None, max_image_pixels=64_000_000
    )
    image = source.render(2, 200).image
    source.close()
    detector = registry.line_detector(RapidOCREngineOptions(backend="onnxruntime"))
    detection = detector.detect(image)
    hangul = registry.script_reader("hangul")
    one, _ = read_detected_lines(image, detection, detector, hangul, strips=1)
    two, numbered = read_detected_lines(image, detection, detector, hangul, strips=2)
    assert read_detected_lines(image, detection, detector, hangul, workers=1) == (
        two,
        numbered,
    )  # threads change nothing
    # the clause lines (① ...) are among the lines read again for their number; the lines
    # that go on a sentence, most of the page, are not
    starts = {ln.bbox for ln in two if ln.text.strip()[:1] in "①②③④⑤⑥(0123456789•@®"}
    assert starts and starts <= numbered
    assert len(numbered) < len(two) / 2
    assert [ln.bbox for ln in two] == [ln.bbox for ln in one]
    joined = ["".join(ln.text for ln in lines) for lines in (one, two)]
    assert char_consistency(normalize(joined[1]), normalize(joined[0])) >= 0.99
    assert len(one) == len(detection.quads) >= 20
    assert sum("국민" in ln.text for ln in one) >= 5
