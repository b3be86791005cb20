"""Schema versions of the service's SQLite stores: a file written before versions were kept
opens with its rows, a failed step leaves the file at the version before it, and a file of a
newer version than this pagereader knows is refused, naming the file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from pagereader.errors import ConfigError
from pagereader.service import sessions
from pagereader.service.jobs import store as jobs
from pagereader.service.jobs.store import JobStore
from pagereader.service.reviews import corrections
from pagereader.service.sqlite import migrate, open_store, schema_version

# The jobs table as the service wrote it before its files carried a schema version.
UNVERSIONED_JOBS = """
CREATE TABLE jobs (
    id TEXT PRIMARY KEY, file_name TEXT NOT NULL, sha256 TEXT NOT NULL, status TEXT NOT NULL,
    pages_done INTEGER NOT NULL DEFAULT 0, pages_total INTEGER, error TEXT,
    created TEXT NOT NULL, finished TEXT, output TEXT NOT NULL
);
CREATE INDEX jobs_status ON jobs (status, created);
INSERT INTO jobs (id, file_name, sha256, status, pages_done, pages_total, created, output)
VALUES ('j1', 'deck.pdf', 'ab', 'ok', 2, 2, '2026-11-30T10:00:00.000+00:00', '/out/j1');
"""


def test_a_jobs_file_written_before_versions_opens_with_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "jobs.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(UNVERSIONED_JOBS)
    store = JobStore(path)
    job = store.get("j1")
    assert job is not None and job.file_name == "deck.pdf" and job.pages_done == 2
    with sqlite3.connect(path) as db:
        assert schema_version(db) == len(jobs.SCHEMA_STEPS)


@pytest.mark.parametrize("module", [jobs, sessions, corrections])
def test_every_store_records_its_version(tmp_path: Path, module: object) -> None:
    steps = module.SCHEMA_STEPS  # type: ignore[attr-defined]
    db = open_store(tmp_path / "store.sqlite", steps)
    assert schema_version(db) == len(steps) >= 1
    db.close()
    again = open_store(tmp_path / "store.sqlite", steps)  # nothing left to apply
    assert schema_version(again) == len(steps)


def test_a_failed_step_leaves_the_version_before_it(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    db = open_store(path, ["CREATE TABLE a (x INTEGER);"])
    steps = [
        "CREATE TABLE a (x INTEGER);",
        "CREATE TABLE b (x INTEGER); INSERT INTO nope VALUES (1);",
    ]
    with pytest.raises(ConfigError, match="from version 1 to 2") as refused:
        migrate(db, steps, path)
    assert refused.value.file == str(path)
    assert schema_version(db) == 1
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {"a"}


def test_a_newer_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "jobs.sqlite"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {len(jobs.SCHEMA_STEPS) + 1}")
    with pytest.raises(ConfigError, match="newer than this pagereader") as refused:
        JobStore(path)
    assert refused.value.file == str(path)
