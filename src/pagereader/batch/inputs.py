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
from pagereader.sources.discover import (
    BATCH_DIR,
    DOCUMENT_MARKERS,
    glob_documents,
    walk_documents,
)
from pagereader.sources.formats import SUPPORTED_SUFFIXES

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


def _remote_outputs(found: list[str], skip: str) -> set[str]:
    """Folders among ``found`` object keys that hold pagereader's outputs: a document's (its
    markers side by side) or a batch's ``_batch`` folder; and ``skip``, this run's OUT."""
    keys = set(found)
    folders = {skip} if skip else set()
    for key in found:
        folder, _, name = key.rpartition("/")
        if name == DOCUMENT_MARKERS[0] and all(
            f"{folder}/{marker}" in keys for marker in DOCUMENT_MARKERS
        ):
            folders.add(folder)
        if f"/{BATCH_DIR}/" in key:
            folders.add(key.split(f"/{BATCH_DIR}/", 1)[0] + f"/{BATCH_DIR}")
    return folders


def _expand_uri(uri: str, storage_options: dict[str, object], skip: str) -> Iterator[InputItem]:
    """A remote file, or every supported file under a remote prefix or glob, except what lies
    in pagereader's outputs (``skip`` is the run's OUT)."""
    import fsspec

    fs, _, paths = fsspec.get_fs_token_paths(uri, storage_options=storage_options)
    protocol = uri.split("://", 1)[0]
    barrier = skip.split("://", 1)[-1].rstrip("/") if skip.startswith(f"{protocol}://") else ""
    for path in sorted(paths):
        if fs.isdir(path):
            found = sorted(fs.find(path))
            outputs = _remote_outputs(found, barrier)
            for key in found:
                if PurePosixPath(key).suffix.lower() not in SUPPORTED_SUFFIXES:
                    continue
                if any(key.startswith(f"{folder}/") for folder in outputs):
                    continue
                yield InputItem(f"{protocol}://{key}")
        else:
            yield InputItem(f"{protocol}://{path}")


def iter_inputs(
    inputs: Iterable[str], storage_options: dict[str, object] | None = None, out: str = ""
) -> Iterator[InputItem]:
    """Every document the inputs name, lazily, in order (``storage_options`` go to fsspec
    for URIs: endpoint, credentials). Folders, prefixes and globs never yield what lies in
    pagereader's outputs: ``out`` (this run's OUT) or an earlier run's."""
    skip = None if not out or is_uri(out) else Path(_local(out))
    for text in inputs:
        if is_uri(text):
            yield from _expand_uri(text, storage_options or {}, out)
            continue
        path = Path(_local(text))
        if path.is_dir():
            yield from (InputItem(str(found)) for found in walk_documents(path, skip))
        elif path.suffix.lower() in MANIFEST_SUFFIXES and path.is_file():
            yield from (InputItem(line) for line in _manifest_lines(path))
        elif glob.has_magic(text):
            yield from (InputItem(str(found)) for found in glob_documents(text, skip))
        else:
            yield InputItem(str(path))
