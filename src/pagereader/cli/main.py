"""The ``pagereader`` command: one module per subcommand, mounted here, each behind
:func:`~pagereader.cli.messages.one_line_errors` (``plan``'s commands in their own module).

A run imports and builds only the subcommand it names (:func:`build_app`): ``pagereader
parse`` pays for no other command's module, nor for building its parameters. ``app``, every
command mounted, is built on first use (``--help``, an unknown name, the tests).
"""

from __future__ import annotations

import atexit
import importlib
import os
import sys
import threading
from typing import Any, NoReturn

import typer

from pagereader.cli.messages import one_line_errors
from pagereader.heap import bound_heap

COMMANDS: dict[str, tuple[str, str]] = {
    "parse": ("pagereader.cli.parse", "parse_command"),
    "batch": ("pagereader.cli.batch", "batch_command"),
    "diff": ("pagereader.cli.diff", "diff_command"),
    "serve": ("pagereader.cli.serve", "serve_command"),
    "serve-engine": ("pagereader.cli.serve_engine", "serve_engine_command"),
    "router-config": ("pagereader.cli.router_config", "router_config_command"),
    "plan": ("pagereader.cli.plan", "app"),
    "eval": ("pagereader.cli.eval", "eval_command"),
    "make-evalset": ("pagereader.cli.eval", "make_evalset_command"),
    "bench": ("pagereader.cli.bench", "bench_command"),
    "export-evalset": ("pagereader.cli.export_evalset", "export_evalset_command"),
    "export-docling": ("pagereader.cli.export_docling", "export_docling_command"),
    "mcp": ("pagereader.cli.mcp", "mcp_command"),
    "schema": ("pagereader.cli.schema", "schema_command"),
    "doctor": ("pagereader.cli.doctor", "doctor_command"),
}
"""Each subcommand's module and name, in the order ``--help`` lists them; ``plan`` is a group."""


def _no_options() -> None:
    """The group's own callback: it takes no options (it keeps a one-command app a group)."""


def build_app(names: tuple[str, ...] = tuple(COMMANDS)) -> typer.Typer:
    """The ``pagereader`` group with the subcommands ``names`` mounted, importing only theirs."""
    built = typer.Typer(
        name="pagereader",
        help="Read slide decks, PDFs and scans into faithful Markdown and JSON.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        # help texts are plain text: "[...]" in a docstring must never be read as rich markup
        rich_markup_mode=None,
        add_completion=False,
    )
    built.callback()(_no_options)
    for name in names:
        module, attribute = COMMANDS[name]
        command = getattr(importlib.import_module(module), attribute)
        if isinstance(command, typer.Typer):
            built.add_typer(command, name=name)
        else:
            built.command(name)(one_line_errors(command))
    return built


def _named(argv: list[str]) -> str | None:
    """The subcommand an argument list names first; None when it starts with an option (the
    group's ``--help``) or names no known subcommand (the full group says so)."""
    if not argv or argv[0] not in COMMANDS:
        return None
    return argv[0]


def __getattr__(name: str) -> Any:
    """``app``: the group with every subcommand, built when first asked for."""
    if name == "app":
        full = build_app()
        globals()["app"] = full
        return full
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _exit_code(done: SystemExit) -> int:
    """The status ``sys.exit`` gives for ``done``: a message is printed and is status 1."""
    if done.code is None:
        return 0
    if isinstance(done.code, int):
        return done.code
    print(done.code, file=sys.stderr)
    return 1


def _finish(code: int) -> NoReturn:
    """End a finished command: exit handlers run and the streams are flushed, as at a normal
    exit, but the interpreter's teardown of every loaded library (0.04-0.08 s of CPU, most
    of what a short ``parse`` pays after its outputs are written) is skipped. Only when no
    other thread runs: one that still works is waited for by a normal exit."""
    if threading.active_count() > 1:
        sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 120  # as Python does when stdout cannot be flushed at exit
    os._exit(code)


def main() -> None:
    """Console entry point: the heap is bounded before any thread starts."""
    bound_heap()
    named = _named(sys.argv[1:])
    try:
        build_app((named,) if named else tuple(COMMANDS))()
    except SystemExit as done:
        _finish(_exit_code(done))
