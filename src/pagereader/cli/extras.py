"""Commands whose libraries come with an optional extra (``eval``, ``router``, ``service``,
``batch``): a missing one is one line naming the extra to install, never an ImportError
traceback, and it is said before any work is done (some of an extra's libraries are imported
only at the end of a run, such as the plots of ``bench``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import metadata
from typing import NoReturn

from pagereader.cli.messages import fail
from pagereader.errors import install_line as errors_install_line

_MARKER = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")
_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def extra_requirements(extra: str) -> list[str]:
    """The distributions ``pagereader[extra]`` adds, read from the installed package's metadata
    (pyproject.toml stays the one list)."""
    names = []
    for requirement in metadata.requires("pagereader") or []:
        marker = _MARKER.search(requirement)
        name = _NAME.match(requirement)
        if marker and name and marker.group(1) == extra:
            names.append(name.group(1))
    return names


def missing_requirements(extra: str) -> list[str]:
    """The distributions of the extra that are not installed."""
    missing = []
    for name in extra_requirements(extra):
        try:
            metadata.version(name)
        except metadata.PackageNotFoundError:
            missing.append(name)
    return missing


def install_line(extra: str) -> str:
    """The one command that adds ``extra`` (errors.install_line)."""
    return errors_install_line(extra)


def _refuse(what: str, extra: str) -> NoReturn:
    line = f"this command needs the {extra!r} extra ({what} missing): "
    raise fail(line + install_line(extra))


@contextmanager
def needs_extra(extra: str) -> Iterator[None]:
    """Imports inside this block belong to ``pagereader[extra]``; every library of the extra
    must be installed before the block runs."""
    missing = missing_requirements(extra)
    if missing:
        _refuse(", ".join(missing), extra)
    try:
        yield
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] == "pagereader":
            raise
        _refuse(str(exc.name), extra)
