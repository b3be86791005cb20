"""The service's job store: one SQLite file (WAL), shared by the request handlers and workers.

A job is one uploaded document. Its row says where it stands (queued, running, ok, partial,
failed), how many pages are done, and its error lines. Jobs left ``running`` by a process that
died are queued again when the store opens, so a restart finishes them.
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict

from pagereader.service.sqlite import open_store

JobStatus = Literal["queued", "running", "ok", "partial", "failed"]
JOB_STATUSES: tuple[str, ...] = get_args(JobStatus)
FINISHED: frozenset[str] = frozenset({"ok", "partial", "failed"})

SCHEMA_STEPS = (
    """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    file_name TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    status TEXT NOT NULL,
    pages_done INTEGER NOT NULL DEFAULT 0,
    pages_total INTEGER,
    error TEXT,
    created TEXT NOT NULL,
    finished TEXT,
    output TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_status ON jobs (status, created);
""",
)
"""The schema, step by step (store.py): a new column or index is a new step at the end."""
_COLUMNS = (
    "id, file_name, sha256, status, pages_done, pages_total, error, created, finished, output"
)


class Job(BaseModel):
    """One row of the store."""

    model_config = ConfigDict(frozen=True)

    id: str
    file_name: str
    sha256: str
    status: JobStatus
    pages_done: int = 0
    pages_total: int | None = None
    error: str | None = None
    created: str
    finished: str | None = None
    output: str

    @property
    def errors(self) -> list[str]:
        """The error lines (one per failed page or file)."""
        return self.error.splitlines() if self.error else []


def _without_rowid(row: sqlite3.Row) -> dict[str, object]:
    data = dict(row)
    data.pop("rowid", None)
    return data


def new_job_id() -> str:
    """A fresh job id (uuid4, hex)."""
    return uuid.uuid4().hex


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class JobStore:
    """Jobs in one SQLite file; every method is safe to call from any thread."""

    def __init__(self, path: Path) -> None:
        """Open (or create) the store; opening changes no job (a tool may read it beside a
        running server)."""
        self.path = path
        self._lock = threading.Lock()
        self._db = open_store(path, SCHEMA_STEPS)

    def _execute(self, sql: str, params: tuple[object, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    def requeue_running(self) -> int:
        """Put the jobs a dead server left running back in the queue (only the server holding
        the data folder's lock may); how many."""
        with self._lock:
            cursor = self._db.execute(
                "UPDATE jobs SET status='queued', pages_done=0 WHERE status='running'"
            )
            return cursor.rowcount

    def create(self, job_id: str, file_name: str, sha256: str, output: Path) -> Job:
        """Queue a new job."""
        self._execute(
            "INSERT INTO jobs (id, file_name, sha256, status, created, output) "
            "VALUES (?, ?, ?, 'queued', ?, ?)",
            (job_id, file_name, sha256, _now(), str(output)),
        )
        job = self.get(job_id)
        assert job is not None
        return job

    def get(self, job_id: str) -> Job | None:
        rows = self._execute(f"SELECT {_COLUMNS} FROM jobs WHERE id=?", (job_id,))
        return Job.model_validate(dict(rows[0])) if rows else None

    def list_jobs(self, status: str | None = None) -> list[Job]:
        """Jobs, oldest first, optionally of one status."""
        if status is None:
            rows = self._execute(f"SELECT {_COLUMNS} FROM jobs ORDER BY created, rowid")
        else:
            rows = self._execute(
                f"SELECT {_COLUMNS} FROM jobs WHERE status=? ORDER BY created, rowid", (status,)
            )
        return [Job.model_validate(dict(row)) for row in rows]

    def page(
        self, limit: int, after: int | None = None, status: str | None = None
    ) -> tuple[list[Job], int | None]:
        """Up to ``limit`` jobs, oldest first, after the job whose row number is ``after``;
        and the row number to ask after next (None on the last page). Row numbers only grow,
        so a page never repeats or skips a job while jobs are added."""
        where = ["rowid > ?"]
        params: list[object] = [after if after is not None else 0]
        if status is not None:
            where.append("status = ?")
            params.append(status)
        rows = self._execute(
            f"SELECT rowid, {_COLUMNS} FROM jobs WHERE {' AND '.join(where)} "
            "ORDER BY rowid LIMIT ?",
            (*params, limit + 1),
        )
        jobs = [Job.model_validate(_without_rowid(row)) for row in rows]
        more = len(rows) > limit
        return jobs[:limit], int(rows[limit - 1]["rowid"]) if more else None

    def newest(self, offset: int, limit: int) -> list[Job]:
        """Jobs newest first, ``limit`` of them from ``offset`` (the jobs page of the UI)."""
        rows = self._execute(
            f"SELECT {_COLUMNS} FROM jobs ORDER BY created DESC, rowid DESC LIMIT ? OFFSET ?",
            (limit, offset),
        )
        return [Job.model_validate(dict(row)) for row in rows]

    def count(self, status: str) -> int:
        """How many jobs have the status."""
        rows = self._execute("SELECT COUNT(*) AS n FROM jobs WHERE status=?", (status,))
        return int(rows[0]["n"])

    def claim(self) -> Job | None:
        """Mark the oldest queued job running and return it (None when the queue is empty)."""
        rows = self._execute(
            "UPDATE jobs SET status='running', pages_done=0, error=NULL, finished=NULL "
            "WHERE id = (SELECT id FROM jobs WHERE status='queued' ORDER BY created, rowid "
            f"LIMIT 1) RETURNING {_COLUMNS}"
        )
        return Job.model_validate(dict(rows[0])) if rows else None

    def set_total(self, job_id: str, pages: int) -> None:
        self._execute("UPDATE jobs SET pages_total=? WHERE id=?", (pages, job_id))

    def page_done(self, job_id: str) -> None:
        self._execute("UPDATE jobs SET pages_done=pages_done+1 WHERE id=?", (job_id,))

    def requeue(self, job_id: str) -> None:
        """Put a running job back in the queue (a stop that could not wait for it)."""
        self._execute(
            "UPDATE jobs SET status='queued', pages_done=0 WHERE id=? AND status='running'",
            (job_id,),
        )

    def counts(self) -> dict[str, int]:
        """How many jobs have each status."""
        rows = self._execute("SELECT status, COUNT(*) FROM jobs GROUP BY status")
        return {status: 0 for status in JOB_STATUSES} | {row[0]: int(row[1]) for row in rows}

    def finish(self, job_id: str, status: JobStatus, errors: list[str]) -> None:
        """Record the outcome of a job."""
        self._execute(
            "UPDATE jobs SET status=?, error=?, finished=? WHERE id=?",
            (status, "\n".join(errors) or None, _now(), job_id),
        )

    def delete(self, job_id: str) -> None:
        self._execute("DELETE FROM jobs WHERE id=?", (job_id,))

    def close(self) -> None:
        with self._lock:
            self._db.close()
