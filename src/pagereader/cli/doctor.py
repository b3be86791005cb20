"""``pagereader doctor``: what this machine can read and serve, what each missing piece costs,
and the one command that adds it.

Plain lines that fit 80 columns (or ``--json``). The exit code is 1 when a configured engine
cannot be reached or does not serve its model, 0 otherwise, even when optional pieces are
missing: a machine without Tesseract still reads PDFs."""

from __future__ import annotations

import dataclasses
import json
import logging
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pagereader.cli.messages import reading_options, setup_logging

if TYPE_CHECKING:
    from pagereader.cli.doctor_checks import Check
    from pagereader.config.options import Options

WIDTH = 80
_INDENT = " " * 6


def _tesseract_binary(options: Options) -> str:
    from pagereader.config.options import TesseractEngineOptions
    from pagereader.config.settings import tesseract_binary

    configured = [o for o in options.engines.values() if isinstance(o, TesseractEngineOptions)]
    return configured[0].binary if configured else tesseract_binary()


def run_checks(options: Options) -> list[Check]:
    """Every check, in the order they are printed."""
    from pagereader import aio
    from pagereader.cli.doctor_checks import (
        check_extras,
        check_fonts,
        check_layout,
        check_libreoffice,
        check_rapidocr,
        check_tesseract,
    )
    from pagereader.cli.doctor_engines import check_engines

    return [
        check_rapidocr(options.ocr),
        check_layout(),
        *check_tesseract(_tesseract_binary(options)),
        *check_libreoffice(),
        *aio.run(check_engines(options)),
        *check_fonts(),
        *check_extras(),
    ]


def _wrapped(prefix: str, text: str) -> list[str]:
    return textwrap.wrap(
        text,
        WIDTH,
        initial_indent=prefix,
        subsequent_indent=_INDENT + "  ",
        break_on_hyphens=False,
        break_long_words=False,
    )


def format_lines(checks: list[Check]) -> list[str]:
    """The report: ``ok``, ``miss`` or ``FAIL`` and the check's name and detail, then for each
    missing piece what it costs and the command that adds it, then a summary line."""
    lines = []
    for check in checks:
        status = "ok" if check.ok else ("FAIL" if check.blocking else "miss")
        lines += _wrapped(f"{status:<6}", f"{check.name}: {check.detail}")
        if not check.ok and check.costs:
            lines += _wrapped(_INDENT, f"costs: {check.costs}")
        if not check.ok and check.fix:
            lines += _wrapped(_INDENT, f"fix: {check.fix}")
    missing = sum(1 for c in checks if not c.ok and not c.blocking)
    failing = [c.name for c in checks if c.blocking]
    summary = f"{len(checks) - missing - len(failing)} ok, {missing} missing"
    if failing:
        summary += f", failing: {', '.join(failing)}"
    return [*lines, *_wrapped("", summary)]


def doctor_command(
    config: Annotated[
        Path | None, typer.Option(help="TOML config whose engines are checked")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object for machines")] = False,
    debug: Annotated[bool, typer.Option(help="show tracebacks and debug logs")] = False,
) -> None:
    """Say what this machine can read and serve: embedded models, Tesseract and its languages,
    LibreOffice, the configured engines, fonts and extras; for each missing piece what it
    costs and the one command that adds it. Exits 1 when a configured engine fails."""
    from pagereader.config.settings import resolve_options

    setup_logging(debug, logging.ERROR)
    with reading_options():
        options = resolve_options(config, {})
    checks = run_checks(options)
    failing = any(c.blocking for c in checks)
    if as_json:
        body = {"ok": not failing, "checks": [dataclasses.asdict(c) for c in checks]}
        typer.echo(json.dumps(body, ensure_ascii=False, indent=2))
    else:
        typer.echo("\n".join(format_lines(checks)))
    if failing:
        raise typer.Exit(1)
