"""The run manifest: one SQLite row per document with its output name, status, pages, seconds,
first error and the options digest it was parsed with.

It lives in OUT/_batch/manifest.sqlite on a local OUT. Only the driver writes it (workers return
outcomes), so one connection suffices. ``--resume`` skips documents whose row says ``ok`` or
``partial`` with the same options digest; failed documents are tried again, since a missing
dependency or a crashed worker may have been the cause. ``status.jsonl`` is the same table as
text, for people and for object stores.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pagereader.config.options import Options

_SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    uri TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL DEFAULT 'pending',
    options_sha256 TEXT NOT NULL DEFAULT '',
    pages INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    run_id TEXT NOT NULL DEFAULT '',
    updated REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    started REAL NOT NULL,
    options_sha256 TEXT NOT NULL,
    options TEXT NOT NULL,
    summary TEXT NOT NULL DEFAULT ''
);
"""
COMPLETE = ("ok", "partial")


def batch_options_digest(options: Options) -> str:
    """SHA-256 of every option that changes a document's output files (the page selection
    and the output switches included, unlike the page cache's key; not the threads a worker
    gives its models)."""
    data = options.model_dump_json(
        exclude={"budget": True, "ocr": {"threads"}, "limits": {"max_pages"}}
    )
    return hashlib.sha256(data.encode()).hexdigest()


@dataclass(frozen=True)
class Outcome:
    """What a worker reports for one document."""

    uri: str
    name: str
    status: str
    pages: int = 0
    seconds: float = 0.0
    error: str = ""
    page_classes: tuple[tuple[str, float], ...] = field(default=())
    cache_hits: int = 0
    reused: int = 0


class Manifest:
    """The SQLite run manifest of one OUT."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(str(path))
        self._db.executescript(_SCHEMA)

    def start_run(self, run_id: str, options: Options, digest: str) -> None:
        with self._db:
            self._db.execute(
                "INSERT INTO runs (run_id, started, options_sha256, options) VALUES (?, ?, ?, ?)",
                (run_id, time.time(), digest, options.model_dump_json()),
            )

    def finish_run(self, run_id: str, summary: dict[str, object]) -> None:
        with self._db:
            self._db.execute(
                "UPDATE runs SET summary=? WHERE run_id=?", (json.dumps(summary), run_id)
            )

    def complete(self, uri: str, digest: str) -> bool:
        """Whether ``uri`` was parsed completely with these options."""
        row = self._db.execute(
            "SELECT status, options_sha256 FROM documents WHERE uri=?", (uri,)
        ).fetchone()
        return bool(row) and row[0] in COMPLETE and row[1] == digest

    def name_for(self, uri: str, stem: str, suffix: str) -> str:
        """The output folder of ``uri``: kept from earlier runs, else its stem, else
        stem-suffix (``parse``'s rule for two inputs sharing a stem), else a counter."""
        row = self._db.execute("SELECT name FROM documents WHERE uri=?", (uri,)).fetchone()
        if row:
            return str(row[0])
        ext = suffix.lstrip(".")
        candidates = [stem, f"{stem}-{ext}"] if ext else [stem]
        counter = 2
        while True:
            for name in candidates:
                try:
                    with self._db:
                        self._db.execute(
                            "INSERT INTO documents (uri, name) VALUES (?, ?)", (uri, name)
                        )
                    return name
                except sqlite3.IntegrityError:
                    continue
            candidates = [f"{stem}-{ext or 'doc'}-{counter}"]
            counter += 1

    def record(self, outcome: Outcome, digest: str, run_id: str) -> None:
        with self._db:
            self._db.execute(
                "UPDATE documents SET status=?, options_sha256=?, pages=?, seconds=?, error=?,"
                " run_id=?, updated=? WHERE uri=?",
                (
                    outcome.status,
                    digest,
                    outcome.pages,
                    outcome.seconds,
                    outcome.error,
                    run_id,
                    time.time(),
                    outcome.uri,
                ),
            )

    def rows(self) -> Iterator[dict[str, object]]:
        cursor = self._db.execute(
            "SELECT uri, name, status, options_sha256, pages, seconds, error, run_id"
            " FROM documents ORDER BY name"
        )
        columns = [c[0] for c in cursor.description]
        for row in cursor:
            yield dict(zip(columns, row, strict=True))

    def status_jsonl(self) -> bytes:
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in self.rows()).encode()

    def close(self) -> None:
        self._db.close()
