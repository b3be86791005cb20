"""Whole files and folders or none: every output is written to a temporary file beside it and
renamed over it, so a reader (a reviewer's browser, a resumed run, a crash) never sees half a
file; a document's folder is built in a hidden sibling and renamed into place the same way.

A folder is built in ``OUT/.<name>.tmp-XXXXXXXX`` (in OUT, so that the rename stays on one
filesystem), flushed to the disk, and put in place by renaming the previous folder aside
(``.<name>.tmp-XXXXXXXX.old``), the new one in, and removing the old one. While it is built,
its writer holds an exclusive ``flock`` on ``.<name>.tmp-XXXXXXXX.lock``; the kernel releases it
when the process ends however it ends, so the next writer of ``<name>`` knows a sibling whose
lock it can take for one a crash left behind: it removes it, and first puts the old folder
back when the crash fell between the two renames. OUT/<name> is thus always the previous
complete folder, the new complete one, or (only for that instant, or until that next writer)
absent with the previous one kept aside.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import re
import secrets
import shutil
from pathlib import Path

logger = logging.getLogger(__name__)

TEMP_SUFFIX = ".part"
"""The suffix of a file being written (a folder's sweep removes those left by a crash)."""
STAGED = ".tmp-"
"""What follows a folder's name in the hidden sibling it is built in."""
_OLD = ".old"
_LOCK = ".lock"


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


_STAGED_NAME = re.compile(rf"\..+{re.escape(STAGED)}[0-9a-f]{{8}}(\.old)?")


def is_staged(name: str) -> bool:
    """Whether ``name`` is a document folder being built, or one a killed run left (its
    staged copy or the previous folder renamed aside)."""
    return _STAGED_NAME.fullmatch(name) is not None


_LOCK_NAME = re.compile(rf"\.(?P<name>.+){re.escape(STAGED)}[0-9a-f]{{8}}{re.escape(_LOCK)}")


def sweep_staged(parent: Path, name: str | None = None) -> int:
    """Remove the hidden siblings that writers cut off by a crash left in ``parent`` (of the
    folder ``name``, or of every folder), putting an old folder back where the crash fell
    between the two renames of a replacement; siblings of a live writer are left alone.
    Returns how many were removed."""
    if not parent.is_dir():
        return 0
    removed = 0
    for lock in sorted(parent.glob(f".*{STAGED}*{_LOCK}")):
        match = _LOCK_NAME.fullmatch(lock.name)
        if match is None or (name is not None and match.group("name") != name):
            continue
        staged = lock.with_name(lock.name.removesuffix(_LOCK))
        old = staged.with_name(staged.name + _OLD)
        if not staged.exists() and not old.exists():
            continue  # a writer between taking its lock and making its folder
        try:
            handle = lock.open("a")
        except OSError:
            continue
        with handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # its writer is alive
            final = parent / match.group("name")
            if old.is_dir() and not final.exists():
                try:
                    os.rename(old, final)
                except OSError as exc:
                    logger.warning("cannot put %s back as %s: %s", old, final, exc)
                    continue
            shutil.rmtree(staged, ignore_errors=True)
            shutil.rmtree(old, ignore_errors=True)
            _unlink_lock(lock, staged, old)
            removed += 1
    return removed


def _unlink_lock(lock: Path, staged: Path, old: Path) -> None:
    """Remove a lock file once nothing it guards is left (else the next sweep needs it)."""
    if not staged.exists() and not old.exists():
        with contextlib.suppress(OSError):
            lock.unlink(missing_ok=True)


def _link(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


class StagedFolder:
    """A folder built in a hidden sibling of ``final`` and put in its place whole.

    Creating one first sweeps what crashed writers of ``final`` left; :meth:`publish` puts it
    in place (replacing the previous folder), :meth:`discard` removes it, leaving ``final``
    as it was. Used as a context manager, it is discarded unless published."""

    def __init__(self, final: Path) -> None:
        """Raises OSError when ``final``'s parent cannot hold the sibling."""
        self.final = final
        self.done = False
        final.parent.mkdir(parents=True, exist_ok=True)
        sweep_staged(final.parent, final.name)
        while True:
            self.path = final.parent / f".{final.name}{STAGED}{secrets.token_hex(4)}"
            try:
                self._lock = self._lock_path.open("x")
            except FileExistsError:
                continue
            break
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX)
            self.path.mkdir()
        except OSError:
            self._release()
            raise

    @property
    def _lock_path(self) -> Path:
        return self.path.with_name(self.path.name + _LOCK)

    @property
    def _old(self) -> Path:
        return self.path.with_name(self.path.name + _OLD)

    def start_from_current(self) -> None:
        """Fill the folder with ``final``'s files, to replace some of them: as hard links (an
        output is only ever replaced by a rename, never changed in place, so the two folders
        cannot disturb each other), or as copies where the filesystem has no links."""
        if self.final.is_dir():
            shutil.copytree(self.final, self.path, copy_function=_link, dirs_exist_ok=True)

    def publish(self) -> None:
        """Flush the folder to the disk and rename it to ``final``, the previous folder
        renamed aside first and removed after; on an OSError this one is removed and the
        previous one kept (put back if it was already aside)."""
        try:
            sync_tree(self.path)
            with contextlib.suppress(FileNotFoundError):
                os.rename(self.final, self._old)
            try:
                os.rename(self.path, self.final)
            except OSError:
                if self._old.exists():
                    os.rename(self._old, self.final)
                raise
        except OSError:
            self.discard()
            raise
        try:
            _sync(self.final.parent)  # the renames themselves
        finally:
            shutil.rmtree(self._old, ignore_errors=True)
            self._release()

    def discard(self) -> None:
        """Remove the folder; ``final`` stays as it was."""
        shutil.rmtree(self.path, ignore_errors=True)
        self._release()

    def _release(self) -> None:
        self.done = True
        _unlink_lock(self._lock_path, self.path, self._old)
        self._lock.close()

    def __enter__(self) -> StagedFolder:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self.done:
            self.discard()
