"""Exactly-once output: a document's folder appears complete or not at all.

Workers write a document into a private staging folder and commit it in one step. On a local
OUT the commit is a rename inside OUT (atomic on one filesystem); a retried task, or a rerun
with other options, replaces the committed folder by a second rename, never by writing into
it. On an fsspec OUT (``s3://bucket/prefix``) object stores have no rename, so the files are
uploaded under the document's prefix and a ``_SUCCESS`` marker object is written last: a
document counts as present only with its marker, and a retry first deletes whatever an
interrupted attempt left there.

A local commit flushes the document's files and folders to the disk before the rename and the
rename after it, so the run manifest, which records the document only once the commit has
returned, never names as complete a document a power cut could leave empty.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pagereader.atomic import write_atomic
from pagereader.batch.inputs import is_uri
from pagereader.sources.discover import BATCH_DIR as BATCH_DIR

logger = logging.getLogger(__name__)

MARKER = "_SUCCESS"


def _sync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def sync_tree(folder: Path) -> None:
    """Flush every file under ``folder``, then the folders that name them, to the disk."""
    folders = [folder]
    for path in sorted(folder.rglob("*")):
        if path.is_dir():
            folders.append(path)
        else:
            _sync(path)
    for path in reversed(folders):
        _sync(path)


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

    def staging(self, name: str) -> Path:
        """A fresh folder to write one attempt at a document into."""
        if self.remote:
            return Path(tempfile.mkdtemp(prefix=f"pagereader-{name}-"))
        root = Path(self.out) / BATCH_DIR / "staging"
        root.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=f"{name}.", dir=root))

    def committed(self, name: str) -> bool:
        if self.remote:
            return bool(self._fs().exists(self.uri(name, MARKER)))
        return (Path(self.out) / name).is_dir()

    def commit(self, name: str, staging: Path) -> None:
        """Publish ``staging`` as OUT/<name>, replacing an older copy from another run."""
        if self.remote:
            self._commit_remote(name, staging)
        else:
            self._commit_local(name, staging)

    def _commit_local(self, name: str, staging: Path) -> None:
        final = Path(self.out) / name
        sync_tree(staging)  # on disk before the rename publishes it: after a power cut the
        # manifest never counts a document whose files were still only in memory
        if final.exists():
            trash = final.parent / BATCH_DIR / "staging" / f"{name}.old-{uuid.uuid4().hex[:8]}"
            os.rename(final, trash)
            shutil.rmtree(trash, ignore_errors=True)
        os.rename(staging, final)
        _sync(final.parent)  # the rename itself

    def _commit_remote(self, name: str, staging: Path) -> None:
        fs = self._fs()
        prefix = self.uri(name)
        fs.invalidate_cache()
        if fs.exists(prefix):
            fs.rm(prefix, recursive=True)
        for path in sorted(p for p in staging.rglob("*") if p.is_file()):
            fs.put_file(str(path), f"{prefix}/{path.relative_to(staging).as_posix()}")
        fs.pipe_file(f"{prefix}/{MARKER}", b"")
        shutil.rmtree(staging, ignore_errors=True)

    def discard(self, staging: Path) -> None:
        shutil.rmtree(staging, ignore_errors=True)

    def clean_staging(self) -> int:
        """Remove what attempts cut off by a crash left behind; returns how many folders."""
        if self.remote:
            return 0
        root = Path(self.out) / BATCH_DIR / "staging"
        if not root.is_dir():
            return 0
        leftovers = list(root.iterdir())
        for path in leftovers:
            shutil.rmtree(path, ignore_errors=True)
        return len(leftovers)

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
