"""How the service opens its SQLite files (jobs, sessions, the review audit trail): shared by
threads, autocommit, WAL so readers never wait for a writer, and a busy timeout so two writers
wait for each other instead of failing."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def open_store(path: Path, schema: str) -> sqlite3.Connection:
    """The database at ``path`` (its folder made), with ``schema`` applied."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA busy_timeout=5000")
    db.executescript(schema)
    return db
