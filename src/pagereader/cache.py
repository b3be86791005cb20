"""Content-addressed SQLite cache of finished pages: a rerun resumes where the last one stopped.

The key is the file's SHA-256, the options' hash and the page number, so a changed file or a
changed option never returns a stale page. Only pages without errors are kept.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from pathlib import Path

from pagereader.options import Options
from pagereader.types import PageResult

_SCHEMA = """
CREATE TABLE IF NOT EXISTS pages (
    file_sha256 TEXT NOT NULL,
    options_sha256 TEXT NOT NULL,
    page INTEGER NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (file_sha256, options_sha256, page)
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
    """SHA-256 of the options that change a page's result (page selection excluded)."""
    data = options.model_dump_json(exclude={"pages", "budget", "output"})
    return hashlib.sha256(data.encode()).hexdigest()


class PageCache:
    """Finished pages in one SQLite file, safe to share between threads of one process."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        with self._lock, self._db:
            self._db.execute(_SCHEMA)

    def get(self, file_sha: str, options_sha: str, page: int) -> PageResult | None:
        with self._lock:
            row = self._db.execute(
                "SELECT result FROM pages WHERE file_sha256=? AND options_sha256=? AND page=?",
                (file_sha, options_sha, page),
            ).fetchone()
        return PageResult.model_validate_json(row[0]) if row else None

    def put(self, file_sha: str, options_sha: str, result: PageResult) -> None:
        if result.errors:
            return
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO pages VALUES (?, ?, ?, ?)",
                (file_sha, options_sha, result.index, result.model_dump_json()),
            )

    def close(self) -> None:
        with self._lock:
            self._db.close()
