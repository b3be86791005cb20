"""``pagereader eval`` and ``pagereader make-evalset``."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

import typer

from pagereader import aio
from pagereader.cli.extras import needs_extra
from pagereader.cli.messages import (
    console,
    fail,
    output_hint,
    reading_options,
    setup_logging,
    writing,
)


def eval_command(
    datasets: Annotated[list[Path], typer.Argument(help="dataset folders (any supported format)")],
    engines: Annotated[
        str,
        typer.Option(
            help="comma-separated: embedded, tesseract, textlayer, "
            "rapidocr, or an engine of --config"
        ),
    ] = "embedded",
    against: Annotated[
        str | None,
        typer.Option(
            help="score against this engine's reading instead of ground truth "
            "(DATASETS may then be plain folders of documents)"
        ),
    ] = None,
    config: Annotated[Path | None, typer.Option(help="TOML config (engines, routes)")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="report folder")] = Path("eval-report"),
    limit: Annotated[int | None, typer.Option(help="at most this many pages per dataset")] = None,
    fold_variants: Annotated[bool, typer.Option(help="fold variant glyphs such as 爲/為")] = True,
    debug: Annotated[bool, typer.Option(help="show tracebacks and debug logs")] = False,
) -> None:
    """Score engines on datasets; write report.json, report.md and report.html."""
    from pagereader.config.settings import resolve_options
    from pagereader.document.writer import probe_folder

    setup_logging(debug, logging.ERROR)
    with needs_extra("eval"):
        from pagereader.evaluate.cases import EvalCase, read_dataset
        from pagereader.evaluate.engines import build_eval_engines
        from pagereader.evaluate.eval_report import comparison_tables, write_report
        from pagereader.evaluate.run_cases import run_eval
        from pagereader.evaluate.versus import read_pages, with_reference
    cases: list[EvalCase] = []
    if against is not None:
        with reading_options():
            options = resolve_options(config)
        for folder in datasets:
            cases.extend(read_pages(folder, options, limit))
    else:
        for folder in datasets:
            found = read_dataset(folder)
            cases.extend(found[:limit] if limit else found)
    if not cases:
        raise fail("no evaluation cases found")
    probe_folder(out)  # before the engines run, not after
    wanted: dict[Path, set[int]] = {}
    for case in cases:
        wanted.setdefault(case.file, set()).add(case.page)
    names = [n.strip() for n in engines.split(",") if n.strip()]
    if against is None:
        with reading_options():
            options = resolve_options(config)
    built = build_eval_engines(names, options, wanted)
    if against is not None:
        reference = build_eval_engines([against], options, wanted)[against]
        console.print(f"{len(cases)} pages, reference: {against}'s reading (not ground truth)")
        cases, unread = aio.run(with_reference(cases, reference, against))
        if unread:
            console.print(f"{len(unread)} pages {against} could not read are left out")
        if not cases:
            raise fail(f"{against} read none of the pages")
    console.print(f"{len(cases)} pages, engines: {', '.join(names)}")
    report = aio.run(run_eval(cases, built, fold_variants=fold_variants, reference_engine=against))
    with writing(out, "--out"):
        paths = write_report(report, out)
    for title, header, rows in comparison_tables(report):
        console.print(f"\n[bold]{title}[/bold]")
        console.print(" | ".join(header))
        for row in rows:
            console.print(" | ".join(row), highlight=False)
    console.print(f"\nreport: {paths['md']}", highlight=False)


def make_evalset_command(
    out: Annotated[Path, typer.Argument(help="folder to write the dataset into")],
) -> None:
    """Write a synthetic dataset (slides and legal pages; en, zh-Hant, ko; digital and scans)."""
    from pagereader.document.writer import probe_folder

    with needs_extra("eval"):
        from pagereader.evaluate.make_evalset import make_evalset

    probe_folder(out, output_hint(None))
    with writing(out, None):
        manifest = make_evalset(out)
    lines = manifest.read_text(encoding="utf-8").count("\n")
    console.print(f"{lines} pages: {manifest}", highlight=False)
