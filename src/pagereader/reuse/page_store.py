"""Cross-document page store: finished pages found by what they hold, for other documents to reuse.

Template slides, agendas and section dividers recur across decks. A row is keyed by the page's
raster digest, its text-layer digest, the options' digest and the build (see cache.build_key),
and holds the finished page and where it was read (source document and page number). Only
pages without errors are kept, and the first page read with a key stays its reference.

Several processes of one machine may share one file (WAL mode; a write that meets ``database is
locked`` is retried, then skipped). Like the page cache it is an accelerator, never a source of
failure: a row that does not decode, or decodes into a page other than the one it names, is a
miss (and dropped); a write that fails is logged and skipped. A process killed mid-write leaves
no row (SQLite's transactions are atomic), never half of one. ``MemoryPages`` is the same
lookup without a file, for the documents of one ``parse`` call.
"""

from __future__ import annotations

import logging
import random
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from pydantic import ValidationError

from pagereader.errors import OutputError
from pagereader.reuse.cache import build_key, connect_or_set_aside
from pagereader.runtime import SharedPage
from pagereader.types import PageResult

logger = logging.getLogger(__name__)

T = TypeVar("T")
Row = tuple[str, str, str, str, str, int, str]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS shared_pages (
    raster_sha256 TEXT NOT NULL,
    layer_sha256 TEXT NOT NULL,
    options_sha256 TEXT NOT NULL,
    build TEXT NOT NULL,
    source TEXT NOT NULL,
    page INTEGER NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (raster_sha256, layer_sha256, options_sha256, build)
)
"""
_COLUMNS = "raster_sha256, layer_sha256, options_sha256, build, source, page, result"
_KEY = "raster_sha256=? AND layer_sha256=? AND options_sha256=? AND build=?"
_ATTEMPTS = 8


def _locked(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


class PageStore:
    """Shared pages in one SQLite file; safe for threads of one process and for several
    processes of one machine (not over a network filesystem: WAL needs shared memory)."""

    def __init__(self, path: Path, *, busy_timeout_s: float = 10.0) -> None:
        self.path = path
        self.build = build_key()
        self.reused = 0
        self._timeout = busy_timeout_s
        self._lock = threading.Lock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = self._retry(self._open)
        except (OSError, sqlite3.Error) as exc:
            raise OutputError(
                f"cannot open the shared page store: {exc}",
                file=path,
                hint="check the folder is writable, or turn page reuse off",
            ) from None

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path), timeout=self._timeout, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    def _open(self) -> sqlite3.Connection:
        db = connect_or_set_aside(self.path, self._connect, "page store")
        with db:
            db.execute(_SCHEMA)
        return db

    def _retry(self, action: Callable[[], T]) -> T:
        """``action``, tried again (with a growing random pause) while another process holds
        the write lock beyond the busy timeout."""
        for attempt in range(_ATTEMPTS):
            try:
                return action()
            except sqlite3.OperationalError as exc:
                if not _locked(exc) or attempt == _ATTEMPTS - 1:
                    raise
                pause = min(2.0, 0.05 * 2**attempt) * (0.5 + random.random())
                logger.debug("page store locked (%s); retrying in %.2f s", exc, pause)
                time.sleep(pause)
        raise AssertionError("unreachable")

    def find(
        self, raster: str, layer: str, options: str, source: str, page: int
    ) -> SharedPage | None:
        """The page read earlier with these digests, or None: also when the only one is this
        very page (``source``, ``page``), and when its row does not decode (then dropped)."""
        key = (raster, layer, options, self.build)
        try:
            with self._lock:
                row = self._retry(
                    lambda: self._db.execute(
                        f"SELECT source, page, result FROM shared_pages WHERE {_KEY}", key
                    ).fetchone()
                )
        except sqlite3.Error as exc:
            logger.warning("page store: lookup failed (%s); reading the page", exc)
            return None
        if row is None or (row[0] == source and row[1] == page):
            return None
        try:
            result = PageResult.model_validate_json(row[2])
        except (ValidationError, ValueError, TypeError) as exc:
            logger.warning("page store: %s page %s does not decode (%s)", row[0], row[1], exc)
            self._drop(key)
            return None
        if result.index != row[1] or result.errors or result.duplicate_of is not None:
            logger.warning("page store: the row of %s page %s holds another page", row[0], row[1])
            self._drop(key)
            return None
        with self._lock:
            self.reused += 1
        return SharedPage(result=result, source=str(row[0]), page=int(row[1]))

    def _drop(self, key: tuple[str, str, str, str]) -> None:
        def delete() -> None:
            with self._db:
                self._db.execute(f"DELETE FROM shared_pages WHERE {_KEY}", key)

        try:
            with self._lock:
                self._retry(delete)
        except sqlite3.Error as exc:
            logger.warning("page store: cannot drop a bad row (%s)", exc)

    def keep(self, raster: str, layer: str, options: str, source: str, result: PageResult) -> None:
        """Keep a freshly read page without errors; the first page kept for a key stays."""
        if result.errors or result.duplicate_of is not None:
            return
        try:
            text = result.model_dump_json()
            row: Row = (raster, layer, options, self.build, source, result.index, text)
            self.insert([row])
        except (ValueError, sqlite3.Error) as exc:
            logger.warning("page store: %s page %d not kept (%s)", source, result.index, exc)

    def insert(self, rows: list[Row]) -> None:
        """Add rows (a worker's new pages, merged in); existing keys are kept."""

        def write() -> None:
            with self._db:
                self._db.executemany(
                    f"INSERT OR IGNORE INTO shared_pages ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    rows,
                )

        with self._lock:
            self._retry(write)

    def last_row(self) -> int:
        """The highest rowid now: rows added later are this process's new pages."""
        with self._lock:
            found = self._db.execute("SELECT MAX(rowid) FROM shared_pages").fetchone()
        return int(found[0] or 0)

    def rows_after(self, rowid: int, chunk: int = 500) -> Iterator[list[Row]]:
        """Rows added after ``rowid``, ``chunk`` at a time."""
        while True:
            with self._lock:
                rows = self._db.execute(
                    f"SELECT rowid, {_COLUMNS} FROM shared_pages WHERE rowid > ? "
                    "ORDER BY rowid LIMIT ?",
                    (rowid, chunk),
                ).fetchall()
            if not rows:
                return
            rowid = rows[-1][0]
            yield [tuple(row[1:]) for row in rows]

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM shared_pages").fetchone()[0])

    def close(self) -> None:
        """Close, folding the write-ahead log into the file (so a copy of the file is whole)."""
        with self._lock:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                logger.debug("page store: no checkpoint at close (%s)", exc)
            self._db.close()


class MemoryPages:
    """The same lookup in memory, for the documents of one ``parse`` call: the most recently
    used ``limit`` pages are kept (a template slide that recurs stays), so a long call's
    memory stays bounded."""

    def __init__(self, limit: int = 1000) -> None:
        self.limit = limit
        self.reused = 0
        self._pages: OrderedDict[tuple[str, str, str], SharedPage] = OrderedDict()
        self._lock = threading.Lock()

    def find(
        self, raster: str, layer: str, options: str, source: str, page: int
    ) -> SharedPage | None:
        with self._lock:
            found = self._pages.get((raster, layer, options))
            if found is None or (found.source == source and found.page == page):
                return None
            self._pages.move_to_end((raster, layer, options))
            self.reused += 1
            return found

    def keep(self, raster: str, layer: str, options: str, source: str, result: PageResult) -> None:
        if result.errors or result.duplicate_of is not None:
            return
        with self._lock:
            self._pages.setdefault(
                (raster, layer, options), SharedPage(result, source, result.index)
            )
            while len(self._pages) > self.limit:
                self._pages.popitem(last=False)
