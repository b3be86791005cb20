"""Commands whose libraries come with an optional extra (``eval``, ``router``, ``service``,
``batch``): a missing one is one line naming the extra to install, never an ImportError
traceback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer


@contextmanager
def needs_extra(extra: str) -> Iterator[None]:
    """Imports inside this block belong to ``pagereader[extra]``."""
    try:
        yield
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] == "pagereader":
            raise
        typer.echo(
            f"error: this command needs {exc.name}, which comes with the {extra!r} extra: "
            f"pip install 'pagereader[{extra}]'",
            err=True,
        )
        raise typer.Exit(1) from None
