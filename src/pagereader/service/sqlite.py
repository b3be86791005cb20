"""How the service opens its SQLite files (jobs, sessions, the review audit trail): shared by
threads, autocommit, WAL so readers never wait for a writer, a busy timeout so two writers
wait for each other instead of failing, and schema versions.

A store's schema is a list of steps: step N takes a file from version N to N + 1 (SQLite's
``PRAGMA user_version``), in one transaction with the version bump, so a file is at one version
or the next and never in between. A file written before versions were kept is at version 0 and
its first step (``CREATE ... IF NOT EXISTS``) finds its tables there. A file of a newer version
than this pagereader knows is refused: an older program must not write a schema it cannot read.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from pagereader.errors import ConfigError


def schema_version(db: sqlite3.Connection) -> int:
    """The file's schema version (0 for a new file or one written before versions)."""
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection, steps: Sequence[str], path: Path) -> int:
    """Apply the steps the file has not had; its version after."""
    version = schema_version(db)
    if version > len(steps):
        raise ConfigError(
            f"schema version {version} is newer than this pagereader's ({len(steps)})",
            file=path,
            hint="run the pagereader that wrote it, or use another data folder",
        )
    for number in range(version, len(steps)):
        try:
            db.executescript(
                f"BEGIN IMMEDIATE;\n{steps[number]}\nPRAGMA user_version = {number + 1};\nCOMMIT;"
            )
        except sqlite3.Error as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise ConfigError(
                f"cannot bring the schema from version {number} to {number + 1}: {exc}",
                file=path,
            ) from exc
    return len(steps)


def open_store(path: Path, steps: Sequence[str]) -> sqlite3.Connection:
    """The database at ``path`` (its folder made), brought to the last of ``steps``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA busy_timeout=5000")
    migrate(db, steps, path)
    return db
