"""The service's request and response bodies as pydantic models. A request body of the wrong
shape or types is a 422 naming each field at fault, never read loosely (a page of 1.7 taken as
1) nor a 500; the responses are what the routes return and what ``/openapi.json`` describes,
so the schema cannot drift from the answers."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from pagereader.http.errors import field_errors, invalid
from pagereader.service.jobs.store import Job, JobStatus
from pagereader.service.reviews.corrections import Review
from pagereader.types import Chunk


class ReviewBody(BaseModel):
    """``POST /v1/jobs/{id}/reviews``: a reviewer's decision on one block."""

    model_config = ConfigDict(extra="forbid")

    page: StrictInt = Field(ge=1)
    block: StrictInt = Field(ge=0)
    action: Literal["approve", "edit", "unreadable"]
    text: StrictStr | None = None


def review_body(body: Any) -> ReviewBody:
    """The decision in a review request; ServiceError 422 naming each field at fault."""
    try:
        return ReviewBody.model_validate(body)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_input=False)
        raise invalid(field_errors(errors), 'JSON {"page", "block", "action", "text"?}') from exc


class JobView(BaseModel):
    """A job as the API shows it: no server paths."""

    id: str
    file: str
    sha256: str
    status: JobStatus
    pages_done: int
    pages_total: int | None
    errors: list[str]
    created: str
    finished: str | None

    @classmethod
    def of(cls, job: Job) -> JobView:
        return cls(
            id=job.id,
            file=job.file_name,
            sha256=job.sha256,
            status=job.status,
            pages_done=job.pages_done,
            pages_total=job.pages_total,
            errors=job.errors,
            created=job.created,
            finished=job.finished,
        )


class JobPage(BaseModel):
    """``GET /v1/jobs``: a page of jobs, oldest first; ``next_cursor`` is None on the last."""

    jobs: list[JobView]
    next_cursor: str | None


class Submitted(BaseModel):
    """``POST /v1/documents`` (202): the queued job."""

    id: str
    status: JobStatus
    file: str


class Deleted(BaseModel):
    """``DELETE /v1/jobs/{id}``: the job is gone; ``cancelled`` when it was running."""

    id: str
    deleted: bool
    cancelled: bool


class Health(BaseModel):
    """``GET /healthz``: the service answers; its workers, queue and engines."""

    status: Literal["ok"]
    workers: int
    queued: int
    running: int
    engines: dict[str, Any]


class Trail(BaseModel):
    """``GET /v1/jobs/{id}/reviews``: a job's decisions in the order made."""

    job: str
    reviews: list[Review]


class BlockEntry(BaseModel):
    """One block as a reviewer sees it: what the pipeline answered, what stands now, why it
    was flagged, and what the layout found inside it to compare with."""

    page: int
    block: int
    kind: str
    bbox: list[float]
    verdict: str
    findings: list[str]
    remedies: list[str]
    engine: str
    text: str
    answer: str
    reference: str
    reference_source: str
    decision: Review | None


class BlockList(BaseModel):
    """``GET /v1/jobs/{id}/blocks``: flagged blocks first, then corrected ones, then the rest."""

    job: str
    blocks: list[BlockEntry]


class ChunkList(BaseModel):
    """``GET /v1/jobs/{id}/chunks``: the document's chunks (chunks.jsonl) in reading order,
    each with its pages, boxes, blocks, offsets into document.md, heading path and article."""

    job: str
    chunks: list[Chunk]
