"""Structured logs for the service: one JSON object a line, with the job id of the work that
logged it (a context variable set while a job runs; asyncio.to_thread copies it into the
threads the pipeline uses, so the stages' own lines carry it too)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime

current_job: ContextVar[str | None] = ContextVar("pagereader_job", default=None)


@contextmanager
def job_context(job_id: str) -> Iterator[None]:
    """Tag every log line inside the block with ``job_id``."""
    token = current_job.set(job_id)
    try:
        yield
    finally:
        current_job.reset(token)


class JobFilter(logging.Filter):
    """Puts the current job id on each record (``record.job_id``, None outside a job)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "job_id", None) is None:
            record.job_id = current_job.get()
        return True


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "message", "job_id"?, "exception"?}`` per line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        job_id = getattr(record, "job_id", None)
        if job_id:
            entry["job_id"] = job_id
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure_logging(level: int, json_lines: bool) -> dict[str, object]:
    """Set up the root logger; returns uvicorn's ``log_config`` that routes its lines through
    the same handler (so access and error lines are JSON too)."""
    handler = logging.StreamHandler()
    handler.addFilter(JobFilter())
    if json_lines:
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "loggers": {
            name: {"handlers": [], "propagate": True, "level": level}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }
