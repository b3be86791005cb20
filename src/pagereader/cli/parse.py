"""``pagereader parse``: files and folders in, Markdown, JSON, overlays and timings out."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from pagereader import aio
from pagereader.cli.messages import console, fail, reading_options, say, setup_logging
from pagereader.cli.pages import parse_page_spec
from pagereader.cli.summary import Outcome, flagged_blocks, print_summary
from pagereader.render.files import REVIEW_MD

if TYPE_CHECKING:  # the pipeline is imported when a parse runs, not for --help
    from pagereader.config.file import OptionPath
    from pagereader.config.options import Options
    from pagereader.reuse.cache import PageCache
    from pagereader.runtime import Runtime
    from pagereader.types import DocumentResult, ErrorItem

CACHE_NAME = ".pagereader-cache.sqlite"


logger = logging.getLogger(__name__)


def expand_inputs(inputs: list[Path], out: Path | None = None) -> list[Path]:
    """Files as given; folders expanded to the supported files inside them (sorted), never
    entering pagereader's outputs (``out`` and earlier runs'); a file named twice is parsed
    once."""
    from pagereader.sources.discover import walk_documents

    files: list[Path] = []
    for item in inputs:
        if item.is_dir():
            files.extend(walk_documents(item, skip=out))
        else:
            files.append(item)
    unique: dict[str, Path] = {}
    for path in files:
        unique.setdefault(os.path.realpath(path), path)
    return list(unique.values())


def _failed(path: Path, item: ErrorItem) -> DocumentResult:
    """The result of a document whose parse or outputs broke: it fails alone."""
    from pagereader.render.json import SCHEMA_VERSION
    from pagereader.types import DocumentResult

    return DocumentResult(
        schema_version=SCHEMA_VERSION, source=str(path), status="failed", errors=(item,)
    )


async def _parse_one(
    path: Path, folder: Path, ctx: Runtime, cache: PageCache | None
) -> DocumentResult:
    """One document into its folder; whatever goes wrong stays with this document."""
    from pagereader.errors import PagereaderError
    from pagereader.pipeline import aparse_to_folder
    from pagereader.types import ErrorItem

    try:
        return await aparse_to_folder(path, folder, ctx, cache)
    except PagereaderError as exc:
        item = exc.to_item()
        return _failed(path, item if item.file else item.model_copy(update={"file": str(path)}))
    except Exception as exc:
        logger.debug("unexpected error in %s", path, exc_info=exc)
        message = f"internal error: {type(exc).__name__}: {exc}"
        hint = "rerun with --debug for the traceback and report it"
        item = ErrorItem(file=str(path), stage="parse", message=message, hint=hint)
        return _failed(path, item)


async def _run(
    files: list[Path],
    out: Path,
    options: Options,
    names: dict[Path, str],
    resume: bool,
    jobs: int = 1,
    reuse_pages: bool = True,
) -> list[Outcome]:
    from pagereader.engine_check import preflight
    from pagereader.pipeline import make_context
    from pagereader.reuse.cache import PageCache
    from pagereader.reuse.page_store import MemoryPages

    cache = PageCache(out / CACHE_NAME) if resume else None
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    ) as progress:
        tasks: dict[str, TaskID] = {}
        shown: set[tuple[str, str]] = set()

        def on_event(event: dict[str, object]) -> None:
            file = str(event.get("file"))
            if event["event"] == "document_start":
                tasks[file] = progress.add_task(
                    escape(Path(file).name), total=int(str(event["pages"]))
                )
            elif event["event"] == "page_done" and file in tasks:
                progress.advance(tasks[file])
            elif event["event"] == "warning":
                shown.add((file, str(event.get("message"))))
                say("warning", f"{file}: {event.get('message')}")

        lookup = MemoryPages() if reuse_pages else None
        ctx = make_context(options, on_event=on_event, shared_pages=lookup)
        for name, problem in (await preflight(ctx)).items():
            say("error", f"{problem.message} ({problem.hint})" if problem.hint else problem.message)
            logger.debug("engine %s failed its start-up check", name)
        loop = asyncio.get_running_loop()
        limit = asyncio.Semaphore(jobs)

        async def one(path: Path) -> Outcome:
            async with limit:
                started = loop.time()
                result = await _parse_one(path, out / names[path], ctx, cache)
            for error in result.errors:
                say("error", error.line())
            for warning in result.warnings:
                if (str(path), warning) not in shown:
                    say("warning", f"{path}: {warning}")
            return path, result, loop.time() - started

        results = list(await asyncio.gather(*(one(path) for path in files)))
    if cache:
        cache.close()
    return results


def reading_flags(
    dpi: int | None, pages: str | None, password: str | None, lang: str | None
) -> dict[OptionPath, object]:
    """The flags that say how a document is read, as option paths (None: not given), so that
    every command that reads documents reads them as ``parse`` does."""
    return {
        ("render", "dpi"): dpi,
        ("pages",): parse_page_spec(pages) if pages else None,
        ("password",): password,
        ("lang",): lang,
    }


def parse_command(
    inputs: Annotated[list[Path], typer.Argument(help="files or folders to parse")],
    out: Annotated[Path, typer.Option("--out", "-o", help="output folder")] = Path("out"),
    dpi: Annotated[
        int | None, typer.Option(help="render resolution for PDF pages (36-600)")
    ] = None,
    pages: Annotated[str | None, typer.Option(help="pages to parse, e.g. 1-3,7")] = None,
    password: Annotated[str | None, typer.Option(help="password of encrypted PDFs")] = None,
    config: Annotated[Path | None, typer.Option(help="TOML config (engines, routes)")] = None,
    lang: Annotated[
        str | None, typer.Option(help="override script detection: en, zh-Hant, ko")
    ] = None,
    overlays: Annotated[
        bool | None, typer.Option("--overlays/--no-overlays", help="write page overlays")
    ] = None,
    chunk_tokens: Annotated[
        int | None,
        typer.Option(min=16, max=65536, help="the most tokens a chunk of chunks.jsonl holds"),
    ] = None,
    char_boxes: Annotated[
        bool | None,
        typer.Option(
            "--char-boxes/--no-char-boxes",
            help="keep per-character boxes of text-layer lines in document.json (~0.8 MB a page)",
        ),
    ] = None,
    picture_text: Annotated[
        bool | None,
        typer.Option(
            "--picture-text/--no-picture-text",
            help="print the text read inside the PDF's pictures in document.md (off: JSON only)",
        ),
    ] = None,
    resume: Annotated[bool, typer.Option(help="reuse pages finished by an earlier run")] = True,
    jobs: Annotated[int, typer.Option(min=1, max=64, help="documents parsed at once")] = 1,
    reuse_pages: Annotated[
        bool, typer.Option(help="reuse pages identical to ones read in another of the documents")
    ] = True,
    debug: Annotated[bool, typer.Option(help="show tracebacks and debug logs")] = False,
) -> None:
    """Parse documents into OUT/NAME/document.md, document.json, chunks.jsonl, pages/ and
    timings.json; NAME is the file's stem, made unique within the run (see the summary)."""
    from pagereader.config.settings import resolve_options
    from pagereader.render.names import output_names

    setup_logging(debug)
    flags = reading_flags(dpi, pages, password, lang)
    flags[("output", "overlays")] = overlays
    flags[("output", "chunk_tokens")] = chunk_tokens
    flags[("output", "char_boxes")] = char_boxes
    flags[("output", "picture_text_in_markdown")] = picture_text
    with reading_options():
        options = resolve_options(config, flags)
    files = expand_inputs(inputs, out)
    if not files:
        raise fail("no supported files found in the inputs")
    names = output_names(files)
    results = aio.run(_run(files, out, options, names, resume, jobs, reuse_pages))
    print_summary(console, results, names)
    for path, result, _ in results:
        if count := flagged_blocks(result):
            where = escape(f"{out / names[path]}/{REVIEW_MD.name}")
            console.print(
                f"[yellow]review[/yellow] {count} block(s) flagged: {where}", highlight=False
            )
    console.print(f"outputs in {escape(str(out))}/", highlight=False)
    if any(result.status != "ok" for _, result, _ in results):
        raise typer.Exit(1)
