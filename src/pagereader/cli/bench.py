"""``pagereader bench``: the timing harness against the per-page budget."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

import typer

from pagereader import aio
from pagereader.cli.extras import needs_extra
from pagereader.cli.messages import console, fail, reading_options, setup_logging, writing
from pagereader.render.files import TIMINGS_JSON


def bench_command(
    folder: Annotated[Path, typer.Argument(help="a folder of decks, PDFs or scans (or one file)")],
    per_type: Annotated[
        int, typer.Option(help="pages per document type (pdf, office, image)")
    ] = 50,
    config: Annotated[Path | None, typer.Option(help="TOML config (engines, routes)")] = None,
    budget: Annotated[float | None, typer.Option(help="seconds per page (default 5)")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="report folder")] = Path("bench-out"),
) -> None:
    """Time every stage of every page; report p50/p95/max per page class against the budget."""
    from pagereader.config.settings import resolve_options
    from pagereader.document.writer import probe_folder

    setup_logging(level=logging.ERROR)
    with needs_extra("eval"):
        from pagereader.evaluate.budget import bench_files, run_bench, write_bench
    with reading_options():
        options = resolve_options(config)
    files = bench_files(folder)
    if not files:
        raise fail(f"{folder}: no supported files")
    probe_folder(out)  # before the pages are timed, not after
    pages, wall = aio.run(run_bench(files, options, per_type))
    target = budget if budget is not None else options.budget.target_page_s
    with writing(out, "--out"):
        report = write_bench(pages, wall, target, out)
    console.print(report.read_text(encoding="utf-8"), highlight=False)
    console.print(f"timings: {out / TIMINGS_JSON.name}", highlight=False)
