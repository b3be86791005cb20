"""``pagereader batch``: many documents over a Ray cluster, with the same outputs as ``parse``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

from pagereader.cli.extras import needs_extra
from pagereader.cli.messages import console, output_hint, reading_options, setup_logging

if TYPE_CHECKING:
    from pagereader.config.options import Options


def _options(
    config: Path | None,
    dpi: int | None,
    lang: str | None,
    overlays: bool,
    chunk_tokens: int | None = None,
) -> Options:
    """The options as ``parse`` reads them: environment, config, then these flags (a bad flag
    is one line naming it, as there)."""
    from pagereader.config.file import OptionPath
    from pagereader.config.settings import resolve_options

    flags: dict[OptionPath, object] = {
        ("render", "dpi"): dpi,
        ("lang",): lang,
        ("output", "overlays"): overlays,
        ("output", "chunk_tokens"): chunk_tokens,
    }
    with reading_options():
        return resolve_options(config, flags)


def _summary_table(summary: dict[str, object]) -> Table:
    table = Table(title="pagereader batch: seconds a page by class")
    for column in ("class", "pages", "p50 s", "p95 s"):
        table.add_column(column)
    by_class = summary["seconds_per_page"]
    assert isinstance(by_class, dict)
    for name, row in by_class.items():
        table.add_row(name, str(row["pages"]), f"{row['p50']:.2f}", f"{row['p95']:.2f}")
    return table


def batch_command(
    inputs: Annotated[
        list[str], typer.Argument(help="files, folders, globs, manifests (.txt/.jsonl) or URIs")
    ],
    out: Annotated[str, typer.Option("--out", "-o", help="output folder or s3:// URI")] = "out",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster to join (ray://host:10001, auto)")
    ] = None,
    workers: Annotated[
        int | None, typer.Option(min=1, help="parser actors (default: cluster CPUs)")
    ] = None,
    cpus: Annotated[
        int | None, typer.Option(min=1, help="CPUs of the local Ray started by the command")
    ] = None,
    cpus_per_worker: Annotated[float, typer.Option(min=0.1, help="CPUs each actor holds")] = 1.0,
    max_pages_per_task: Annotated[
        int, typer.Option(min=1, help="longer PDFs are split into page ranges of this size")
    ] = 50,
    config: Annotated[Path | None, typer.Option(help="TOML config (engines, routes)")] = None,
    dpi: Annotated[int | None, typer.Option(help="render resolution for PDF pages")] = None,
    lang: Annotated[str | None, typer.Option(help="override script detection")] = None,
    overlays: Annotated[bool, typer.Option(help="write page overlays")] = True,
    chunk_tokens: Annotated[
        int | None,
        typer.Option(min=16, max=65536, help="the most tokens a chunk of chunks.jsonl holds"),
    ] = None,
    resume: Annotated[
        bool, typer.Option(help="skip documents complete with the same options")
    ] = True,
    reuse_pages: Annotated[
        bool,
        typer.Option(help="reuse pages identical to ones read in other documents or runs"),
    ] = True,
    debug: Annotated[bool, typer.Option(help="show tracebacks and debug logs")] = False,
) -> None:
    """Parse documents on Ray into OUT/<name>/ (as parse does), with a run manifest in
    OUT/_batch/. Exit code 1 when a document failed."""
    from pagereader.document.writer import probe_folder
    from pagereader.sources.discover import BATCH_DIR

    setup_logging(debug)
    with needs_extra("batch"):
        from pagereader.batch import BatchConfig, BatchStats, run_batch
        from pagereader.batch.cluster import connect, disconnect
        from pagereader.batch.inputs import is_uri
    options = _options(config, dpi, lang, overlays, chunk_tokens)
    if not is_uri(out):  # before Ray starts, not after
        probe_folder(Path(out) / BATCH_DIR, output_hint("--out"))
    batch_config = BatchConfig(
        workers=workers,
        cpus_per_worker=cpus_per_worker,
        max_pages_per_task=max_pages_per_task,
        resume=resume,
        reuse_pages=reuse_pages,
    )
    last = [0.0]

    def on_progress(stats: BatchStats) -> None:
        if console.is_terminal:
            console.print(stats.line(), end="\r", highlight=False)
        elif time.monotonic() - last[0] > 10:
            console.print(stats.line(), highlight=False)
            last[0] = time.monotonic()

    started = connect(address, cpus)
    try:
        stats = run_batch(inputs, out, options, batch_config, on_progress=on_progress)
    finally:
        if started:
            disconnect()
    summary = stats.summary()
    console.print(stats.line(), highlight=False)
    if summary["seconds_per_page"]:
        console.print(_summary_table(summary))
    console.print(
        f"{stats.documents} documents parsed ({stats.partial} partial, {stats.failed} failed),"
        f" {stats.skipped} already complete and skipped, {stats.pages} pages,"
        f" {stats.pages_per_second:.2f} pages/s ({stats.steady_pages_per_second:.2f} once the"
        f" workers were up, {stats.workers_start_s:.1f} s after the start),"
        f" {stats.reused} reused pages (read before in"
        f" another document or run), {stats.cache_hits} repeated within a document",
        highlight=False,
    )
    if stats.documents == 0 and stats.skipped:
        console.print("nothing to parse: every document is complete in the manifest")
    for uri, error in stats.failures:
        named = not error or error.startswith(f"{uri}: ")  # the file is named once
        line = (error or uri) if named else f"{uri}: {error}"
        console.print(f"[red]failed[/red] {escape(line)}", highlight=False)
    console.print(f"outputs in {out}/ (run manifest in {out}/_batch/)", highlight=False)
    if stats.failed:
        raise typer.Exit(1)
