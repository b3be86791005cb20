"""Batch inputs: files, folders, globs, manifests (``.txt`` or ``.jsonl``) and URIs, read lazily.

A million-line manifest is never held in memory: every input is a generator, and the runner
takes items from it only as fast as the workers finish.
"""

from __future__ import annotations

import glob
import json
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pagereader.errors import InputError
from pagereader.sources import SUPPORTED_SUFFIXES

logger = logging.getLogger(__name__)

MANIFEST_SUFFIXES = frozenset({".txt", ".jsonl"})


@dataclass(frozen=True)
class InputItem:
    """One document to parse: a local path or an fsspec URI (``s3://bucket/key.pdf``)."""

    uri: str

    @property
    def is_remote(self) -> bool:
        return is_uri(self.uri)

    @property
    def stem(self) -> str:
        return PurePosixPath(self.uri.split("://", 1)[-1]).stem

    @property
    def suffix(self) -> str:
        return PurePosixPath(self.uri).suffix.lower()


def is_uri(text: str) -> bool:
    """An fsspec URI (``scheme://...``) rather than a local path; ``file://`` counts as local."""
    return "://" in text and not text.startswith("file://")


def _local(text: str) -> str:
    return text.removeprefix("file://")


def _walk_sorted(folder: Path) -> Iterator[InputItem]:
    """Supported files under ``folder`` in ``parse``'s order (paths sorted by their parts),
    one folder level in memory at a time."""
    entries = sorted(folder.iterdir())
    for entry in entries:
        if entry.is_dir():
            yield from _walk_sorted(entry)
        elif entry.is_file() and entry.suffix.lower() in SUPPORTED_SUFFIXES:
            yield InputItem(str(entry))


def _manifest_lines(path: Path) -> Iterator[str]:
    """Paths or URIs of a manifest, one document a line (taken as written: no listing, so a
    million-line manifest costs no object-store calls); a ``.jsonl`` line is ``{"path": ...}``
    or ``{"uri": ...}``. Relative paths are relative to the manifest's folder."""
    with path.open(encoding="utf-8") as handle:
        for number, raw in enumerate(handle, start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if path.suffix.lower() == ".jsonl":
                try:
                    record = json.loads(line)
                    line = str(record.get("uri") or record["path"])
                except (ValueError, KeyError, AttributeError) as exc:
                    raise InputError(
                        f"manifest line {number} is not a JSON object with a path or uri",
                        file=path,
                        hint='write one {"path": "..."} object a line',
                    ) from exc
            if is_uri(line) or Path(_local(line)).is_absolute():
                yield _local(line)
            else:
                yield str(path.parent / line)


def _expand_uri(uri: str, storage_options: dict[str, object]) -> Iterator[InputItem]:
    """A remote file, or every supported file under a remote prefix or glob."""
    import fsspec

    fs, _, paths = fsspec.get_fs_token_paths(uri, storage_options=storage_options)
    protocol = uri.split("://", 1)[0]
    for path in sorted(paths):
        if fs.isdir(path):
            for found in sorted(fs.find(path)):
                if PurePosixPath(found).suffix.lower() in SUPPORTED_SUFFIXES:
                    yield InputItem(f"{protocol}://{found}")
        else:
            yield InputItem(f"{protocol}://{path}")


def iter_inputs(
    inputs: Iterable[str], storage_options: dict[str, object] | None = None
) -> Iterator[InputItem]:
    """Every document the inputs name, lazily, in order (``storage_options`` go to fsspec
    for URIs: endpoint, credentials)."""
    for text in inputs:
        if is_uri(text):
            yield from _expand_uri(text, storage_options or {})
            continue
        path = Path(_local(text))
        if path.is_dir():
            yield from _walk_sorted(path)
        elif path.suffix.lower() in MANIFEST_SUFFIXES and path.is_file():
            yield from (InputItem(line) for line in _manifest_lines(path))
        elif glob.has_magic(text):
            yield from (InputItem(match) for match in sorted(glob.iglob(text, recursive=True)))
        else:
            yield InputItem(str(path))
