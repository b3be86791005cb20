"""``pagereader diff OLD NEW -o OUT``: two versions of a statute or contract compared article
by article into OUT/diff.md and OUT/diff.json, critical changes (得 -> 應, shall -> may, a
number, a date, an article cited) first.

OLD and NEW are documents (PDFs, scans, images, decks), read as ``parse`` reads them with the
same flags, or earlier outputs of ``parse`` (a document.json or the folder holding one)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from pagereader import aio
from pagereader.cli.messages import console, fail, reading_options, say, setup_logging, writing
from pagereader.cli.outputs import load_output, saved_output
from pagereader.cli.parse import reading_flags

if TYPE_CHECKING:  # the pipeline is imported when a diff runs, not for --help
    from pagereader.config.options import Options
    from pagereader.structure.diff import VersionDiff
    from pagereader.types import DocumentResult


async def _read(paths: list[Path], options: Options) -> list[DocumentResult]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn

    from pagereader.pipeline import aparse, make_context

    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), console=console
    ) as progress:
        tasks: dict[str, TaskID] = {}

        def on_event(event: dict[str, object]) -> None:
            file = str(event.get("file"))
            if event["event"] == "document_start":
                pages = int(str(event["pages"]))
                tasks[file] = progress.add_task(escape(Path(file).name), total=pages)
            elif event["event"] == "page_done" and file in tasks:
                progress.advance(tasks[file])

        ctx = make_context(options, on_event=on_event)
        return list(await asyncio.gather(*(aparse(path, ctx=ctx) for path in paths)))


def read_versions(paths: list[Path], options: Options) -> list[DocumentResult]:
    """Each path as a document: a saved output loaded, a source document parsed (together,
    with one set of engines)."""
    saved = {path: saved_output(path) for path in paths}
    results: dict[Path, DocumentResult] = {p: load_output(s) for p, s in saved.items() if s}
    sources = list(dict.fromkeys(path for path in paths if saved[path] is None))
    if sources:
        results.update(zip(sources, aio.run(_read(sources, options)), strict=True))
    return [results[path] for path in paths]


WARNING_CHARS = 300
"""Characters of critical tokens one warning line lists (all are in diff.json)."""
WARNING_LINES = 20
"""Notes, and critical changes, named on the terminal (all are in diff.md and diff.json)."""
NOTE_CHARS = 600
"""Characters of one note on the terminal (diff.md and diff.json hold it whole)."""


def _report(diff: VersionDiff) -> None:
    from pagereader.structure.diff.diff_report import listed, page_list

    s = diff.summary
    for note in diff.notes[:WARNING_LINES]:
        say(
            "warning", note if len(note) <= NOTE_CHARS else f"{note[:NOTE_CHARS]}… (all in diff.md)"
        )
    if len(diff.notes) > WARNING_LINES:
        say("warning", f"{len(diff.notes) - WARNING_LINES:,} more notes, all in diff.md")
    if not diff.changes:
        console.print("no changes", highlight=False)
        return
    console.print(
        f"{len(diff.changes)} change{'s' if len(diff.changes) != 1 else ''}: "
        f"{s.added} added, {s.deleted} deleted, "
        f"{s.renumbered} renumbered, {s.changed} changed ({s.critical} critical)",
        highlight=False,
    )
    critical = [change for change in diff.changes if change.critical]
    for change in critical[:WARNING_LINES]:
        ref = change.new or change.old
        name = (
            ref.label if ref else f"a passage on {page_list(change.new_pages or change.old_pages)}"
        )
        say("warning", f"critical change in {name}: {listed(change.critical, WARNING_CHARS)}")
    if len(critical) > WARNING_LINES:
        more = len(critical) - WARNING_LINES
        say("warning", f"{more:,} more critical change(s), all in diff.md and diff.json")


def diff_command(
    old: Annotated[Path, typer.Argument(help="the earlier version (document or document.json)")],
    new: Annotated[Path, typer.Argument(help="the later version (document or document.json)")],
    out: Annotated[Path, typer.Option("--out", "-o", help="output folder")] = Path("diff"),
    dpi: Annotated[
        int | None, typer.Option(help="render resolution for PDF pages (36-600)")
    ] = None,
    pages: Annotated[str | None, typer.Option(help="pages to read, e.g. 1-3,7")] = None,
    password: Annotated[str | None, typer.Option(help="password of encrypted PDFs")] = None,
    config: Annotated[Path | None, typer.Option(help="TOML config (engines, routes)")] = None,
    lang: Annotated[
        str | None, typer.Option(help="override script detection: en, zh-Hant, ko")
    ] = None,
    debug: Annotated[bool, typer.Option(help="show tracebacks and debug logs")] = False,
) -> None:
    """Compare two versions of a document into OUT/diff.md and OUT/diff.json: articles
    added, deleted, renumbered and changed, word by word with their pages, critical changes
    (modal words, numbers, dates, articles cited) first. Exit code 1 when a version could not
    be read whole."""
    from pagereader.atomic import write_atomic
    from pagereader.config.settings import resolve_options
    from pagereader.structure.diff import (
        diff_documents,
        diff_json_text,
        diff_markdown,
        diff_patterns,
    )

    setup_logging(debug)
    with reading_options():
        options = resolve_options(config, reading_flags(dpi, pages, password, lang))
    for path in (old, new):
        if not path.exists():
            raise fail(f"{path}: no such file or folder")
    versions = read_versions([old, new], options)
    for path, result in zip((old, new), versions, strict=True):
        if result.status == "failed":
            lines = "; ".join(error.line() for error in result.errors) or "no pages read"
            raise fail(f"cannot compare, {path} could not be read: {lines}")
    overrides = dict(options.verify.critical_patterns)
    diff = diff_documents(versions[0], versions[1], diff_patterns(overrides))
    with writing(out, "-o"):
        write_atomic(out / "diff.json", diff_json_text(diff).encode("utf-8"))
        write_atomic(out / "diff.md", diff_markdown(diff).encode("utf-8"))
    _report(diff)
    console.print(f"diff in {escape(str(out))}/diff.md and diff.json", highlight=False)
    partial = [r for r in versions if r.status != "ok"]
    errors = [error.line() for result in partial for error in result.errors]
    for line in errors[:WARNING_LINES]:
        say("error", line)
    if len(errors) > WARNING_LINES:
        say("error", f"{len(errors) - WARNING_LINES:,} more errors, all in diff.json")
    if partial:
        raise typer.Exit(1)
