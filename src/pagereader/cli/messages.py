"""How every command tells the user what went wrong: one line on stderr and an exit code.

A failure the user can fix (a PagereaderError, or an OSError such as a read-only or missing
folder or a full disk) is one line, ``error: <what> <path>: <reason> (<what to do>)``, and
exit code 1; any other exception is a bug and keeps its traceback. Library warnings are
printed the way ``parse`` prints its own, ``warning <file> page N: ...``, not as raw log
records.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Literal, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

if TYPE_CHECKING:
    from pagereader.errors import PagereaderError


console = Console(stderr=True)

P = ParamSpec("P")
R = TypeVar("R")

CONFIG_HINT = "see examples/configs/ and docs/vlm.md"
_COLORS = {"error": "red", "warning": "yellow"}


def say(kind: Literal["error", "warning"], line: str) -> None:
    """One line of a run's report, ``error <file>: ...`` or ``warning <file> page N: ...``."""
    color = _COLORS[kind]
    console.print(f"[{color}]{kind}[/{color}] {escape(line)}", highlight=False, soft_wrap=True)


def error_line(exc: PagereaderError) -> str:
    """The error as one line naming its file once, with its hint when it has one."""
    item = exc.to_item()
    if item.file:
        return item.line()
    return f"{item.message} ({item.hint})" if item.hint else item.message


def os_error_line(exc: OSError, what: str = "") -> str:
    """An OSError as ``<what> <path>: <reason>``, its path named once."""
    reason = exc.strerror or str(exc)
    if exc.filename is None:
        return f"{what}: {reason}" if what else reason
    where = f"{exc.filename} -> {exc.filename2}" if exc.filename2 else str(exc.filename)
    return f"{what} {where}: {reason}" if what else f"{where}: {reason}"


def fail(line: str, code: int = 1) -> typer.Exit:
    """Print ``error: line`` and return the Exit to raise."""
    typer.echo(f"error: {line}", err=True)
    return typer.Exit(code)


def output_hint(flag: str | None) -> str:
    """What to do about an output that cannot be written; ``flag`` chooses another."""
    other = f"choose another with {flag}" if flag else "choose another folder"
    return f"make the folder writable or free disk space, or {other}"


@contextmanager
def writing(target: Path, flag: str | None) -> Iterator[None]:
    """OSErrors inside the block are failures to write ``target`` (a file or a folder): one
    OutputError naming the path that failed and the flag that chooses another."""
    from pagereader.errors import OutputError

    try:
        yield
    except OSError as exc:
        if exc.filename is None:
            exc.filename = str(target)
        line = os_error_line(exc, "cannot write")
        raise OutputError(line, hint=output_hint(flag)) from None


def print_or_write(text: str, out: Path | None, wrote: str = "") -> None:
    """``text`` on stdout, or into ``out`` (named by ``--out``) with a line on stderr saying so,
    followed by ``wrote`` (what to do with it next)."""
    if out is None:
        typer.echo(text, nl=False)
        return
    with writing(out, "--out"):
        out.write_text(text, encoding="utf-8")
    typer.echo(f"wrote {out}{wrote}", err=True)


@contextmanager
def reading_options() -> Iterator[None]:
    """ConfigErrors raised while options are read (a config file, a PAGEREADER_* variable, a
    flag) point to the configuration docs unless they say what to do themselves."""
    from pagereader.errors import ConfigError

    try:
        yield
    except ConfigError as exc:
        if not exc.hint:
            exc.hint = CONFIG_HINT
        raise


def one_line_errors(command: Callable[P, R]) -> Callable[P, R]:
    """``command`` with its user-facing failures as one line and exit code 1 (a traceback
    with ``--debug``, where the command has it)."""
    from pagereader.errors import PagereaderError

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:

        try:
            return command(*args, **kwargs)
        except PagereaderError as exc:
            if kwargs.get("debug"):
                raise
            raise fail(error_line(exc)) from None
        except OSError as exc:
            if kwargs.get("debug"):
                raise
            raise fail(os_error_line(exc)) from None

    return run


class _LineHandler(logging.Handler):
    """Log records as the CLI's own lines: ``warning <message>``; records of other libraries
    are prefixed with their logger's name."""

    def __init__(self, debug: bool) -> None:
        super().__init__()
        self.debug = debug

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
            if not record.name.startswith("pagereader"):
                message = f"{record.name}: {message}"
            if self.debug and record.exc_info:
                message += "\n" + logging.Formatter().formatException(record.exc_info)
            if record.levelno >= logging.ERROR:
                say("error", message)
            elif record.levelno >= logging.WARNING:
                say("warning", message)
            else:
                level = record.levelname.lower()
                console.print(f"{level} {escape(message)}", highlight=False, soft_wrap=True)
        except Exception:
            self.handleError(record)


def setup_logging(debug: bool = False, level: int = logging.WARNING) -> None:
    """Route library log records through the CLI's line format (DEBUG with ``debug``)."""
    root = logging.getLogger()
    root.setLevel(logging.DEBUG if debug else level)
    for handler in root.handlers:
        if isinstance(handler, _LineHandler):
            root.removeHandler(handler)
    root.addHandler(_LineHandler(debug))
