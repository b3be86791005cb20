"""Verifier cost: seconds per page with and without the verifier, measured in one run.

The embedded path (text layer and embedded OCR) runs on every given document; the VLM path
runs too when an OpenAI-compatible endpoint is given (``--base-url``, e.g. a vLLM serving
PaddleOCR-VL or Qwen-VL), routing every block to it with the text layer and the embedded OCR
as fallbacks. Each configuration is parsed ``--repeat`` times and the best wall time is kept
(the first parse also loads the embedded models, so a warm-up parse runs before timing).
Wall times on a shared machine are noisy; the verify stage's own seconds per page (from the
page timings) are the precise cost.

    python bench/verifier.py [FILES ...] [--base-url http://127.0.0.1:8000/v1 --model M]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from pagereader.config.options import OpenAIEngineOptions, Options
from pagereader.engines import registry
from pagereader.engines.base import Engine
from pagereader.engines.openai_api import OpenAIEngine
from pagereader.engines.registry import build_engines
from pagereader.pipeline import aparse
from pagereader.runtime import Runtime
from pagereader.types import DocumentResult

DEFAULT_FILES = ("examples/deck.pdf", "examples/scan.png")
VLM_ROUTES = {"*.*": ["vlm", "textlayer", "ocr"], "*.table": ["vlm", "grid", "ocr"]}


def _options(base: Options, verify: bool) -> Options:
    return base.model_copy(update={"verify": base.verify.model_copy(update={"enabled": verify})})


async def _measure(
    path: Path, options: Options, engines: dict[str, Engine], repeat: int
) -> tuple[float, DocumentResult]:
    """Best wall time of ``repeat`` parses in one event loop; the served engines' HTTP clients
    belong to that loop, so they are closed before it ends."""
    best, result = float("inf"), None
    try:
        for _ in range(repeat):
            start = time.perf_counter()
            result = await aparse(
                path, ctx=Runtime(options=options, capabilities=registry, engines=dict(engines))
            )
            best = min(best, time.perf_counter() - start)
    finally:
        served = [e for e in engines.values() if isinstance(e, OpenAIEngine)]
        await asyncio.gather(*(engine.aclose() for engine in served))
    assert result is not None
    return best, result


@dataclass
class Row:
    """One document on one path: wall seconds with the verifier off and on, and what it did."""

    file: str
    path: str
    pages: int
    off_s: float
    on_s: float
    verify_s: float
    flagged: int
    blocks: int

    def cells(self) -> list[str]:
        pages = max(1, self.pages)
        return [
            self.file,
            self.path,
            str(self.pages),
            f"{self.off_s / pages:.3f}",
            f"{self.on_s / pages:.3f}",
            f"{self.on_s / self.off_s:.2f}x" if self.off_s else "-",
            f"{self.verify_s / pages:.4f}",
            f"{self.flagged}/{self.blocks}",
        ]


def _total(rows: list[Row], label: str) -> Row:
    mine = [r for r in rows if r.path == label]
    return Row(
        "all",
        label,
        sum(r.pages for r in mine),
        sum(r.off_s for r in mine),
        sum(r.on_s for r in mine),
        sum(r.verify_s for r in mine),
        sum(r.flagged for r in mine),
        sum(r.blocks for r in mine),
    )


def _row(path: Path, label: str, base: Options, repeat: int) -> Row:
    engines = build_engines(base)
    asyncio.run(_measure(path, _options(base, False), engines, 1))  # warm-up: load the models
    off_s, _ = asyncio.run(_measure(path, _options(base, False), engines, repeat))
    on_s, on = asyncio.run(_measure(path, _options(base, True), engines, repeat))
    actions = [b.verdict.outcome for p in on.pages for b in p.blocks]
    stage = sum(p.timings.stages.get("verify", 0.0) for p in on.pages if p.timings)
    flagged = sum(a != "accept" for a in actions)
    return Row(path.name, label, len(on.pages), off_s, on_s, stage, flagged, len(actions))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", default=list(DEFAULT_FILES))
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint for the VLM path")
    parser.add_argument("--model", default="PaddlePaddle/PaddleOCR-VL")
    parser.add_argument(
        "--prompt-style", default="paddleocr-vl", choices=["paddleocr-vl", "qwen-vl"]
    )
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    configs: list[tuple[str, Options]] = [("embedded", Options())]
    if args.base_url:
        vlm = OpenAIEngineOptions(
            base_url=args.base_url, model=args.model, prompt_style=args.prompt_style
        )
        configs.append(("vlm", Options(engines={"vlm": vlm}, routes=VLM_ROUTES)))
    header = [
        "file",
        "path",
        "pages",
        "s/page off",
        "s/page on",
        "on/off",
        "verify s/page",
        "flagged",
    ]
    measured = [
        _row(Path(f), label, options, args.repeat) for f in args.files for label, options in configs
    ]
    measured += [_total(measured, label) for label, _ in configs]
    rows = [row.cells() for row in measured]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for line in [header, ["-" * w for w in widths], *rows]:
        sys.stdout.write("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
