"""Exactly-once output: a document's folder appears complete or not at all.

On a local OUT the document's writer builds the folder in a hidden sibling and renames it into
place (atomic.py: flushed to the disk first, the rename after), replacing the folder of an
earlier attempt or run whole, never writing into it; the run manifest records the document
only once that has returned, so it never names as complete a document a power cut could leave
empty. On an fsspec OUT (``s3://bucket/prefix``) object stores have no rename, so the folder
is written locally, its files uploaded under the document's prefix and a ``_SUCCESS`` marker
object written last: a document counts as present only with its marker, and a retry first
deletes whatever an interrupted attempt left there.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pagereader.atomic import sweep_staged, write_atomic
from pagereader.batch.inputs import is_uri
from pagereader.sources.discover import BATCH_DIR as BATCH_DIR

logger = logging.getLogger(__name__)

MARKER = "_SUCCESS"


class Destination:
    """OUT as a local folder or an fsspec URI; picklable, so workers get their own copy."""

    def __init__(self, out: str, storage_options: dict[str, object] | None = None) -> None:
        self.out = out.rstrip("/")
        self.remote = is_uri(out)
        self.storage_options = storage_options or {}

    def _fs(self) -> Any:
        import fsspec

        protocol = self.out.split("://", 1)[0]
        return fsspec.filesystem(protocol, **self.storage_options)

    def uri(self, *parts: str) -> str:
        return "/".join((self.out, *parts))

    def folder(self, name: str) -> Path:
        """Where a document's writer puts its folder: OUT/<name>, or on an object store a
        private local folder that :meth:`commit` uploads."""
        if self.remote:
            return Path(tempfile.mkdtemp(prefix=f"pagereader-{name}-")) / name
        return Path(self.out) / name

    def committed(self, name: str) -> bool:
        if self.remote:
            return bool(self._fs().exists(self.uri(name, MARKER)))
        return (Path(self.out) / name).is_dir()

    def commit(self, name: str, folder: Path) -> None:
        """Publish the written ``folder`` as OUT/<name> (locally its writer has done so)."""
        if self.remote:
            self._commit_remote(name, folder)

    def _commit_remote(self, name: str, folder: Path) -> None:
        fs = self._fs()
        prefix = self.uri(name)
        fs.invalidate_cache()
        if fs.exists(prefix):
            fs.rm(prefix, recursive=True)
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            fs.put_file(str(path), f"{prefix}/{path.relative_to(folder).as_posix()}")
        fs.pipe_file(f"{prefix}/{MARKER}", b"")
        self.discard(folder)

    def discard(self, folder: Path) -> None:
        """Drop an attempt's local copy (locally its writer has left OUT/<name> as it was)."""
        if self.remote:
            shutil.rmtree(folder.parent, ignore_errors=True)

    def clean_staging(self) -> int:
        """Remove what attempts cut off by a crash left in OUT (a document's folder kept
        aside is put back first); returns how many."""
        return 0 if self.remote else sweep_staged(Path(self.out))

    def put_bytes(self, relative: str, data: bytes) -> None:
        """Write a small file (the run's status export) under OUT."""
        if self.remote:
            self._fs().pipe_file(self.uri(relative), data)
            return
        write_atomic(Path(self.out) / relative, data)

    def get_bytes(self, relative: str) -> bytes | None:
        if self.remote:
            fs = self._fs()
            uri = self.uri(relative)
            return fs.cat_file(uri) if fs.exists(uri) else None
        path = Path(self.out) / relative
        return path.read_bytes() if path.is_file() else None

    @contextmanager
    def local_copy(self, relative: str) -> Iterator[Path]:
        """A local file for OUT's ``relative`` (a SQLite file): OUT's own on a local OUT; on an
        object store a downloaded copy, uploaded again when the block ends."""
        if not self.remote:
            yield Path(self.out) / relative
            return
        folder = Path(tempfile.mkdtemp(prefix="pagereader-batch-"))
        path = folder / Path(relative).name
        try:
            earlier = self.get_bytes(relative)
            if earlier is not None:
                path.write_bytes(earlier)
            yield path
            self.put_bytes(relative, path.read_bytes())
        finally:
            shutil.rmtree(folder, ignore_errors=True)
