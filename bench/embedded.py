"""Seconds per page by stage on the embedded path, beside Tesseract on the same images.

Pages: the generated fixtures (digital deck and legal pages, their scans) and the Tesseract
test pages in ../shared/eval/tesseract_test (or --extra folders). Tesseract reads the very
raster the pipeline rendered (OMP_THREAD_LIMIT=1, language from the detected script), so the
ratio column compares the two on equal input in the same run.

    .venv/bin/python bench/embedded.py [--extra DIR ...]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from pagereader.engines.tesseract import LANGS_BY_SCRIPT, tesseract_text  # noqa: E402
from pagereader.pipeline import make_context, parse_page  # noqa: E402
from pagereader.sources import open_source  # noqa: E402

from fixtures import build_fixtures  # noqa: E402

STAGES = ("render", "classify", "layout", "recognize", "verify", "assemble")


async def measure(path: Path) -> list[dict[str, object]]:
    """Stage seconds of every page of ``path``, and Tesseract's seconds on the same raster."""
    ctx = make_context()
    source = open_source(path, password=None, max_image_pixels=ctx.options.render.max_image_pixels)
    rows = []
    try:
        for index in range(1, source.page_count + 1):
            result, rendered = await parse_page(ctx, source, index)
            if result.timings is None or rendered is None or result.decision is None:
                continue
            lang = LANGS_BY_SCRIPT.get(result.decision.script, "eng")
            psm = 6 if result.decision.script == "hangul" else 3
            start = time.perf_counter()
            tesseract_text(rendered.image, lang, psm=psm)
            tess = time.perf_counter() - start
            rows.append(
                {
                    "file": path.name,
                    "page": index,
                    "class": result.decision.page_class,
                    "engine": result.decision.text_engine,
                    **result.timings.stages,
                    "total": result.timings.total,
                    "tesseract": tess,
                }
            )
    finally:
        source.close()
    return rows


def table(rows: list[dict[str, object]]) -> str:
    """A Markdown table of the rows, then one summary row per page class."""
    head = ["file", "page", "class", "engine", *STAGES[:4], "total", "tesseract", "ratio"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [str(r["file"]), str(r["page"]), str(r["class"]), str(r["engine"])]
        cells += [f"{float(r[s]):.2f}" for s in (*STAGES[:4], "total", "tesseract")]  # type: ignore[arg-type]
        cells.append(f"{float(r['total']) / float(r['tesseract']):.2f}x")  # type: ignore[arg-type]
        out.append("| " + " | ".join(cells) + " |")
    for cls in sorted({str(r["class"]) for r in rows}):
        mine = [r for r in rows if r["class"] == cls]
        mean = {
            k: statistics.mean(float(r[k]) for r in mine)  # type: ignore[arg-type]
            for k in (*STAGES[:4], "total", "tesseract")
        }
        cells = [f"**mean {cls}**", str(len(mine)), cls, ""]
        cells += [f"{mean[s]:.2f}" for s in (*STAGES[:4], "total", "tesseract")]
        cells.append(f"{mean['total'] / mean['tesseract']:.2f}x")
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--extra",
        type=Path,
        nargs="*",
        default=[ROOT.parent / "shared" / "eval" / "tesseract_test"],
    )
    args = parser.parse_args()
    fx = build_fixtures(ROOT / "tests" / "fixtures" / "_generated")
    files = [fx.deck_pdf, fx.legal_pdf, fx.scan_pdf, fx.deck_scan_pdf]
    for folder in args.extra:
        if folder.is_dir():
            files += sorted(p for p in folder.iterdir() if p.suffix.lower() in (".tif", ".png"))
    rows: list[dict[str, object]] = []
    for path in files:
        rows += asyncio.run(measure(path))
    print(table(rows))


if __name__ == "__main__":
    main()
