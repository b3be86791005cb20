"""``pagereader parse``: files and folders in, Markdown, JSON, overlays and timings out."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from pagereader.cache import PageCache
from pagereader.cli.pages import parse_page_spec
from pagereader.errors import PagereaderError
from pagereader.pipeline import aparse_to_folder, make_context
from pagereader.render.writer import output_names
from pagereader.settings import resolve_options
from pagereader.sources import SUPPORTED_SUFFIXES
from pagereader.types import DocumentResult

console = Console(stderr=True)


def expand_inputs(inputs: list[Path]) -> list[Path]:
    """Files as given; folders expanded to the supported files inside them (sorted)."""
    files: list[Path] = []
    for item in inputs:
        if item.is_dir():
            files.extend(
                p
                for p in sorted(item.rglob("*"))
                if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES
            )
        else:
            files.append(item)
    return files


def _summary(results: list[tuple[Path, DocumentResult, float]]) -> Table:
    table = Table(title="pagereader parse")
    for column in ("file", "status", "pages", "classes", "seconds", "errors"):
        table.add_column(column)
    for path, result, seconds in results:
        classes: dict[str, int] = {}
        for page in result.pages:
            if page.decision:
                classes[page.decision.page_class] = classes.get(page.decision.page_class, 0) + 1
        color = {"ok": "green", "partial": "yellow", "failed": "red"}[result.status]
        table.add_row(
            path.name,
            f"[{color}]{result.status}[/{color}]",
            str(len(result.pages)),
            " ".join(f"{k}:{v}" for k, v in sorted(classes.items())),
            f"{seconds:.1f}",
            str(len(result.errors)),
        )
    return table


async def _run(
    files: list[Path],
    out: Path,
    options_kwargs: dict[str, object],
    config: Path | None,
    resume: bool,
    jobs: int = 1,
) -> list[tuple[Path, DocumentResult, float]]:
    options = resolve_options(config)
    data = options.model_dump()
    for key, value in options_kwargs.items():
        if value is None:
            continue
        if key == "dpi":
            data["render"]["dpi"] = value
        elif key == "overlays":
            data["output"]["overlays"] = value
        else:
            data[key] = value
    options = type(options).model_validate(data)
    names = output_names(files)
    cache = PageCache(out / ".pagereader-cache.sqlite") if resume else None
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    ) as progress:
        tasks: dict[str, TaskID] = {}

        def on_event(event: dict[str, object]) -> None:
            file = str(event.get("file"))
            if event["event"] == "document_start":
                tasks[file] = progress.add_task(Path(file).name, total=int(str(event["pages"])))
            elif event["event"] == "page_done" and file in tasks:
                progress.advance(tasks[file])

        ctx = make_context(options, on_event=on_event)
        loop = asyncio.get_running_loop()
        limit = asyncio.Semaphore(jobs)

        async def one(path: Path) -> tuple[Path, DocumentResult, float]:
            async with limit:
                started = loop.time()
                result = await aparse_to_folder(path, out / names[path], ctx, cache)
            for error in result.errors:
                console.print(f"[red]error[/red] {error.line()}", highlight=False)
            return path, result, loop.time() - started

        results = list(await asyncio.gather(*(one(path) for path in files)))
    if cache:
        cache.close()
    return results


def parse_command(
    inputs: Annotated[list[Path], typer.Argument(help="files or folders to parse")],
    out: Annotated[Path, typer.Option("--out", "-o", help="output folder")] = Path("out"),
    dpi: Annotated[int | None, typer.Option(help="render resolution for PDF pages")] = None,
    pages: Annotated[str | None, typer.Option(help="pages to parse, e.g. 1-3,7")] = None,
    password: Annotated[str | None, typer.Option(help="password of encrypted PDFs")] = None,
    config: Annotated[Path | None, typer.Option(help="TOML config (engines, routes)")] = None,
    lang: Annotated[
        str | None, typer.Option(help="override script detection: en, zh-Hant, ko")
    ] = None,
    overlays: Annotated[bool, typer.Option(help="write page overlays")] = True,
    resume: Annotated[bool, typer.Option(help="reuse pages finished by an earlier run")] = True,
    jobs: Annotated[int, typer.Option(min=1, max=64, help="documents parsed at once")] = 1,
    debug: Annotated[bool, typer.Option(help="show tracebacks and debug logs")] = False,
) -> None:
    """Parse documents into OUT/<name>/document.md, document.json, pages/ and timings.json."""
    logging.basicConfig(level=logging.DEBUG if debug else logging.WARNING)
    try:
        selection = parse_page_spec(pages) if pages else None
        files = expand_inputs(inputs)
        if not files:
            console.print("[red]error[/red] no supported files found in the inputs")
            raise typer.Exit(1)
        results = asyncio.run(
            _run(
                files,
                out,
                {
                    "dpi": dpi,
                    "pages": selection,
                    "password": password,
                    "lang": lang,
                    "overlays": overlays,
                },
                config,
                resume,
                jobs,
            )
        )
    except PagereaderError as exc:
        if debug:
            raise
        console.print(f"[red]error[/red] {exc}", highlight=False)
        raise typer.Exit(1) from None
    console.print(_summary(results))
    console.print(f"outputs in {out}/", highlight=False)
    if any(result.status != "ok" for _, result, _ in results):
        raise typer.Exit(1)
