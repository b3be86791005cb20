"""One server per data folder: an exclusive lock held for the server's whole life.

The service re-queues the jobs it finds running and removes folders that no job owns when it
starts; a second server on the same folder would re-run the first one's jobs and delete its
uploads in flight. The lock is ``flock`` on ``service.lock`` in the folder: the kernel releases
it when the process ends, however it ends (kill -9 included), so a stale lock never blocks a
restart. The holder's process id is written in the file for the refusal to name it.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

from pagereader.errors import OutputError

LOCK_NAME = "service.lock"


class DataDirInUseError(OutputError):
    """Another server holds the data folder."""

    default_hint = "stop the other server, or give this one its own --data-dir"


class DataDirLock:
    """The exclusive lock on one data folder."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOCK_NAME
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock now, or raise DataDirInUseError naming the holder."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a+", encoding="ascii")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            handle.close()
            raise DataDirInUseError(
                f"the data folder {self.path.parent} is in use by another pagereader server "
                f"(process {holder})"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._file = handle

    def release(self) -> None:
        """Give the lock up (closing the file releases it)."""
        if self._file is not None:
            self._file.close()
            self._file = None
