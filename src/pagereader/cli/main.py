"""The ``pagereader`` command: one module per subcommand, mounted here, each behind
:func:`~pagereader.cli.messages.one_line_errors` (``plan``'s commands in their own module).

A run imports and builds only the subcommand it names (:func:`build_app`): ``pagereader
parse`` pays for no other command's module, nor for building its parameters. ``app``, every
command mounted, is built on first use (``--help``, an unknown name, the tests).
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from collections.abc import Callable
from typing import Any, NoReturn

import typer

from pagereader.cli.messages import one_line_errors
from pagereader.heap import bound_heap

Command = Callable[..., Any] | typer.Typer
"""A subcommand's function, or a group of them (``plan``)."""


def _parse() -> Command:
    from pagereader.cli.parse import parse_command

    return parse_command


def _batch() -> Command:
    from pagereader.cli.batch import batch_command

    return batch_command


def _diff() -> Command:
    from pagereader.cli.diff import diff_command

    return diff_command


def _serve() -> Command:
    from pagereader.cli.serve import serve_command

    return serve_command


def _serve_engine() -> Command:
    from pagereader.cli.serve_engine import serve_engine_command

    return serve_engine_command


def _router_config() -> Command:
    from pagereader.cli.router_config import router_config_command

    return router_config_command


def _plan() -> Command:
    from pagereader.cli.plan import app as group

    return group


def _eval() -> Command:
    from pagereader.cli.eval import eval_command

    return eval_command


def _make_evalset() -> Command:
    from pagereader.cli.eval import make_evalset_command

    return make_evalset_command


def _bench() -> Command:
    from pagereader.cli.bench import bench_command

    return bench_command


def _export_evalset() -> Command:
    from pagereader.cli.export_evalset import export_evalset_command

    return export_evalset_command


def _export_docling() -> Command:
    from pagereader.cli.export_docling import export_docling_command

    return export_docling_command


def _mcp() -> Command:
    from pagereader.cli.mcp import mcp_command

    return mcp_command


def _schema() -> Command:
    from pagereader.cli.schema import schema_command

    return schema_command


def _doctor() -> Command:
    from pagereader.cli.doctor import doctor_command

    return doctor_command


COMMANDS: dict[str, Callable[[], Command]] = {
    "parse": _parse,
    "batch": _batch,
    "diff": _diff,
    "serve": _serve,
    "serve-engine": _serve_engine,
    "router-config": _router_config,
    "plan": _plan,
    "eval": _eval,
    "make-evalset": _make_evalset,
    "bench": _bench,
    "export-evalset": _export_evalset,
    "export-docling": _export_docling,
    "mcp": _mcp,
    "schema": _schema,
    "doctor": _doctor,
}
"""Each subcommand's loader (its module is imported when it is called), in the order
``--help`` lists them."""


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
        command = COMMANDS[name]()
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
    """Console entry point: the heap is bounded before any thread starts. Pydantic's plugin
    search (every installed distribution's entry points, 0.02 s a run) is skipped unless the
    user's environment says otherwise: pagereader's models need no plugin."""
    bound_heap()
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    named = _named(sys.argv[1:])
    try:
        build_app((named,) if named else tuple(COMMANDS))()
    except SystemExit as done:
        _finish(_exit_code(done))
