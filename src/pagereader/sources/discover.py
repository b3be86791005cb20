"""Which files under an input folder are documents to read.

A folder that pagereader wrote is never read back as input: an output folder kept inside the
input folder (``parse docs -o docs/parsed``) would otherwise have its page overlays parsed as
scans on the next run, and a batch walking its input lazily would read the documents it has
just written. Such a folder is a document's output (``document.json``, ``document.md`` and
``timings.json`` side by side), one being built (``.<name>.tmp-XXXXXXXX``, see atomic.py), a
batch's ``_batch`` folder, or this run's own OUT. An earlier
run's OUT is entered, so a document a user keeps there is still read; only the outputs in it
are passed over.
"""

from __future__ import annotations

import glob
import logging
import os
from collections.abc import Iterator
from pathlib import Path

from pagereader.atomic import is_staged
from pagereader.render.files import DOCUMENT_JSON, DOCUMENT_MD, TIMINGS_JSON
from pagereader.sources.formats import SUPPORTED_SUFFIXES

logger = logging.getLogger(__name__)

DOCUMENT_MARKERS = (DOCUMENT_JSON.name, DOCUMENT_MD.name, TIMINGS_JSON.name)
BATCH_DIR = "_batch"
BATCH_MARKERS = ("manifest.sqlite", "staging")


def is_output_folder(folder: Path) -> bool:
    """True for a document's output folder (also one being built, or left half-built by a
    killed run), or a batch's ``_batch`` folder."""
    if is_staged(folder.name):
        return True
    if folder.name == BATCH_DIR:
        return any((folder / name).exists() for name in BATCH_MARKERS)
    return all((folder / name).is_file() for name in DOCUMENT_MARKERS)


def _same(path: Path, other: Path | None) -> bool:
    return other is not None and os.path.realpath(path) == os.path.realpath(other)


def walk_documents(folder: Path, skip: Path | None = None) -> Iterator[Path]:
    """Supported files under ``folder``, sorted by their path's parts, one folder level in
    memory at a time; output folders and ``skip`` (the run's OUT) are not entered, and a
    warning names the first of them and counts the rest."""
    passed: list[Path] = []
    yield from _walk(folder, skip, passed)
    if len(passed) > 1:
        logger.warning("...and %d more folders of pagereader's outputs not read", len(passed) - 1)


def _walk(folder: Path, skip: Path | None, passed: list[Path]) -> Iterator[Path]:
    for entry in sorted(folder.iterdir()):
        if entry.is_dir():
            if _same(entry, skip) or is_output_folder(entry):
                if not passed:
                    logger.warning("not reading %s: it holds pagereader's outputs", entry)
                passed.append(entry)
                continue
            yield from _walk(entry, skip, passed)
        elif entry.is_file() and entry.suffix.lower() in SUPPORTED_SUFFIXES:
            yield entry


def glob_documents(pattern: str, skip: Path | None = None) -> Iterator[Path]:
    """The matches of a glob pattern, sorted, less those in an output folder or in ``skip``
    below the pattern's fixed part (a pattern that names an output folder itself is taken
    as written, like a file named on the command line); each folder looked at once."""
    root = _fixed_part(pattern)
    seen: dict[Path, bool] = {}
    passed: list[Path] = []

    def excluded(folder: Path) -> bool:
        if folder not in seen:
            seen[folder] = _same(folder, skip) or is_output_folder(folder)
            if seen[folder]:
                passed.append(folder)
        return seen[folder]

    for match in sorted(glob.iglob(pattern, recursive=True)):
        path = Path(match)
        below = [parent for parent in path.parents if root in parent.parents]
        if not any(excluded(folder) for folder in below):
            yield path
    if passed:
        more = f" and {len(passed) - 1} more" if len(passed) > 1 else ""
        logger.warning("not reading %s%s: pagereader's outputs", passed[0], more)


def _fixed_part(pattern: str) -> Path:
    """The leading folders of a glob pattern that hold no wildcard."""
    fixed = Path()
    for part in Path(pattern).parts[:-1]:
        if glob.has_magic(part):
            break
        fixed /= part
    return fixed
