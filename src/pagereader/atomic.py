"""Whole files or none: every output is written to a temporary file beside it and renamed over
it, so a reader (a reviewer's browser, a resumed run, a crash) never sees half a file."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

TEMP_SUFFIX = ".part"
"""The suffix of a file being written (a folder's sweep removes those left by a crash)."""


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file (named for this process) and a
    rename; on an OSError the temporary file is removed and the error raised."""
    temp = path.with_name(f".{path.name}.{os.getpid()}{TEMP_SUFFIX}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with temp.open("wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except OSError:
        with contextlib.suppress(OSError):
            temp.unlink(missing_ok=True)
        raise
