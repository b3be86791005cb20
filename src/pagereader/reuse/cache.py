"""Content-addressed SQLite cache of finished pages: a rerun resumes where the last one stopped.

The key is the file's SHA-256, the options' hash, the build (package version and a hash of the
page result's schema) and the page number, so a changed file, option or upgrade never returns a
stale page. Only pages without errors are kept. The cache is an accelerator, never a source of
failure: a row that does not decode is a miss (logged and dropped), and a write that fails (a
full disk) is logged and skipped.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
from collections.abc import Callable
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from pydantic import ValidationError

from pagereader.config.options import Options, OutputOptions
from pagereader.errors import OutputError
from pagereader.types import PageResult

logger = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS pages (
    file_sha256 TEXT NOT NULL,
    options_sha256 TEXT NOT NULL,
    build TEXT NOT NULL,
    page INTEGER NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (file_sha256, options_sha256, build, page)
)
"""


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def options_digest(options: Options) -> str:
    """SHA-256 of the options that change a page's result (page selection, threads and the
    output switches excluded, but for ``char_boxes``, which a page's result keeps or not)."""
    data = options.model_dump_json(
        exclude={
            "pages": True,
            "budget": True,
            "output": set(OutputOptions.model_fields) - {"char_boxes"},
            "ocr": {"threads"},
            "limits": {"max_pages"},
        }
    )
    return hashlib.sha256(data.encode()).hexdigest()


@cache
def build_key() -> str:
    """The package version and a hash of PageResult's JSON schema: rows written by another
    build are not read back (they may not decode, or decode into a different meaning)."""
    try:
        package = version("pagereader")
    except PackageNotFoundError:
        package = "unknown"
    schema = json.dumps(PageResult.model_json_schema(), sort_keys=True)
    return f"{package}+{hashlib.sha256(schema.encode()).hexdigest()[:16]}"


def connect_or_set_aside(
    path: Path, connect: Callable[[], sqlite3.Connection], what: str
) -> sqlite3.Connection:
    """``connect()`` to the SQLite file at ``path``; a file that is not a database (a crash
    mid-copy, a stray file of that name) is moved to ``*.broken`` and a new one is made, so a
    cache never stops a run. A locked or unreadable file still raises."""
    db: sqlite3.Connection | None = None
    try:
        db = connect()
        db.execute("PRAGMA schema_version").fetchone()
        return db
    except sqlite3.DatabaseError as exc:
        if db is not None:
            db.close()
        if isinstance(exc, sqlite3.OperationalError):
            raise
        broken = path.with_name(path.name + ".broken")
        logger.warning("%s is not a usable %s (%s); moved to %s", path, what, exc, broken)
        path.replace(broken)
        return connect()


class PageCache:
    """Finished pages in one SQLite file, safe to share between threads of one process."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.build = build_key()
        self._lock = threading.Lock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = self._open()
        except (OSError, sqlite3.OperationalError) as exc:
            raise OutputError(f"cannot write the page cache: {exc}", file=path) from None

    def _open(self) -> sqlite3.Connection:
        db = connect_or_set_aside(
            self.path,
            lambda: sqlite3.connect(str(self.path), check_same_thread=False),
            "page cache",
        )
        columns = {row[1] for row in db.execute("PRAGMA table_info(pages)")}
        with db:
            if columns and "build" not in columns:
                db.execute("DROP TABLE pages")  # written before builds were keyed
            db.execute(_SCHEMA)
        return db

    def get(self, file_sha: str, options_sha: str, page: int) -> PageResult | None:
        """The cached page, or None (also when its row does not decode: then it is dropped)."""
        key = (file_sha, options_sha, self.build, page)
        try:
            with self._lock:
                row = self._db.execute(
                    "SELECT result FROM pages WHERE file_sha256=? AND options_sha256=? "
                    "AND build=? AND page=?",
                    key,
                ).fetchone()
            return PageResult.model_validate_json(row[0]) if row else None
        except (ValidationError, ValueError, TypeError, sqlite3.Error) as exc:
            logger.warning(
                "page cache: page %d of %s… does not decode (%s)", page, file_sha[:12], exc
            )
            self._drop(key)
            return None

    def _drop(self, key: tuple[str, str, str, int]) -> None:
        try:
            with self._lock, self._db:
                self._db.execute(
                    "DELETE FROM pages WHERE file_sha256=? AND options_sha256=? AND build=? "
                    "AND page=?",
                    key,
                )
        except sqlite3.Error as exc:
            logger.warning("page cache: cannot drop a bad row (%s)", exc)

    def put(self, file_sha: str, options_sha: str, result: PageResult) -> None:
        """Keep a page without errors; a failed write (full disk, read-only) is only logged."""
        if result.errors:
            return
        try:
            text = result.model_dump_json()
            with self._lock, self._db:
                self._db.execute(
                    "INSERT OR REPLACE INTO pages VALUES (?, ?, ?, ?, ?)",
                    (file_sha, options_sha, self.build, result.index, text),
                )
        except (ValueError, sqlite3.Error) as exc:
            logger.warning("page cache: page %d not kept (%s)", result.index, exc)

    def close(self) -> None:
        with self._lock:
            self._db.close()
