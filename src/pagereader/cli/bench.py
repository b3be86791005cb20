"""``pagereader bench``: the timing harness against the per-page budget."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pagereader.cli.extras import needs_extra
from pagereader.errors import PagereaderError
from pagereader.settings import resolve_options

console = Console(stderr=True)


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
    logging.basicConfig(level=logging.ERROR)
    with needs_extra("eval"):
        from pagereader.evaluate.budget import bench_files, run_bench, write_bench
    try:
        options = resolve_options(config)
        files = bench_files(folder)
        if not files:
            console.print(f"[red]error[/red] {folder}: no supported files")
            raise typer.Exit(1)
        pages, wall = asyncio.run(run_bench(files, options, per_type))
    except PagereaderError as exc:
        console.print(f"[red]error[/red] {exc}", highlight=False)
        raise typer.Exit(1) from None
    target = budget if budget is not None else options.budget.target_page_s
    report = write_bench(pages, wall, target, out)
    console.print(report.read_text(encoding="utf-8"), highlight=False)
    console.print(f"timings: {out / 'timings.json'}", highlight=False)
