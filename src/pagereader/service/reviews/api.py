"""The review API: a job's blocks with their verdicts, a reviewer's decisions on them, the audit
trail, block crops, and the evalset made of what people checked.

Decisions need a finished job; each one is appended to the trail and every output of the job
is written anew at once, by the writer a parse writes with (corrections.py). Only a reviewer
decides; only an admin reverts a decision.
"""

from __future__ import annotations

import asyncio
import io
import logging
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from pagereader.errors import PagereaderError
from pagereader.http.auth import Principal
from pagereader.http.errors import ServiceError
from pagereader.http.json_body import read_json
from pagereader.service.deps import Admin, Reader, Reviewer
from pagereader.service.jobs.store import FINISHED, Job
from pagereader.service.reviews.cases import export_evalset
from pagereader.service.reviews.corrections import (
    REVIEW_ACTIONS,
    Review,
    apply_reviews,
    block_text,
    load_original,
    regenerate,
)
from pagereader.service.reviews.crops import block_crop
from pagereader.service.schemas import (
    BlockEntry,
    BlockList,
    ReviewBody,
    Trail,
    review_body,
)
from pagereader.service.workers import Service
from pagereader.types import BlockResult, DocumentResult

logger = logging.getLogger(__name__)

MAX_TEXT_CHARS = 100_000
MAX_BODY_BYTES = 2 * 1024 * 1024  # MAX_TEXT_CHARS even as escaped surrogate pairs, 12 bytes each
_VERDICT_RANK = {"review": 0, "retry": 1, "escalate": 1, "fallback": 1, "accept": 2}


@dataclass(frozen=True)
class JobDocument:
    """A finished job's result as the pipeline wrote it, and as corrected by people."""

    job: Job
    original: DocumentResult
    corrected: DocumentResult
    decisions: dict[tuple[int, int], Review]

    def block(self, page: int, order: int) -> tuple[BlockResult, BlockResult]:
        """(original, corrected) of one block; ServiceError 404 when it does not exist."""
        for old_page, new_page in zip(self.original.pages, self.corrected.pages, strict=True):
            if old_page.index != page:
                continue
            for old, new in zip(old_page.blocks, new_page.blocks, strict=True):
                if old.block.order == order:
                    return old, new
        raise ServiceError(404, f"job {self.job.id} has no block {order} on page {page}")


def job_document(service: Service, job_id: str) -> JobDocument:
    """The finished job's document; ServiceError 404 unknown, 409 unfinished or without output."""
    job = service.store.get(job_id)
    if job is None:
        raise ServiceError(404, f"no job {job_id}")
    if job.status not in FINISHED:
        raise ServiceError(409, f"job {job_id} is {job.status}; try again when it has finished")
    original = load_original(Path(job.output))
    if original is None:
        raise ServiceError(409, f"job {job_id} has no document to review ({job.status})")
    decisions = service.reviews.current(job_id)
    corrected = apply_reviews(original, decisions, service.options)
    return JobDocument(job, original, corrected, decisions)


def reference_of(block: BlockResult) -> tuple[str, str]:
    """(text, source) the layout found inside the block: the text layer on digital pages, the
    page's OCR lines on scans; empty when the block had none."""
    text = "\n".join(line.text for line in block.block.lines if line.text.strip())
    return text, block.block.source if text else ""


def block_entries(doc: JobDocument) -> list[BlockEntry]:
    """Every block, flagged ones first, then those corrected automatically, then the rest."""
    entries: list[BlockEntry] = []
    for old_page, new_page in zip(doc.original.pages, doc.corrected.pages, strict=True):
        for old, new in zip(old_page.blocks, new_page.blocks, strict=True):
            key = (old_page.index, old.block.order)
            reference, source = reference_of(old)
            decision = doc.decisions.get(key)
            entries.append(
                BlockEntry(
                    page=old_page.index,
                    block=old.block.order,
                    kind=old.block.kind,
                    bbox=list(old.block.bbox),
                    verdict=old.verdict.outcome,
                    findings=[f.message for f in old.verdict.findings if f.severity != "info"],
                    remedies=[f.message for f in old.verdict.findings if f.check == "remedy"],
                    engine=old.engine,
                    text=block_text(new),
                    answer=block_text(old),
                    reference=reference,
                    reference_source=source,
                    decision=decision,
                )
            )
    entries.sort(key=lambda e: (_VERDICT_RANK.get(e.verdict, 1), e.page, e.block))
    return entries


def check_unicode(fields: dict[str, str | None]) -> None:
    """ServiceError 422 when a field holds a surrogate code point (JSON can spell a lone one,
    ``"\\ud800"``; UTF-8, hence SQLite and the outputs, cannot store it): a person's text is
    stored as sent or refused, never altered."""
    for name, value in fields.items():
        where = next((i for i, c in enumerate(value or "") if "\ud800" <= c <= "\udfff"), None)
        if value is not None and where is not None:
            raise ServiceError(
                422,
                f"{name} holds a lone surrogate (U+{ord(value[where]):04X} at character "
                f"{where}), which is not a character: send valid Unicode text",
            )


async def record_decision(
    service: Service,
    job_id: str,
    page: int,
    order: int,
    action: str,
    text: str | None,
    who: Principal,
) -> Review:
    """Record a reviewer's decision on a block and regenerate the job's outputs."""
    check_unicode({"action": action, "text": text})
    if action not in REVIEW_ACTIONS or action == "revert":
        choices = ", ".join(a for a in REVIEW_ACTIONS if a != "revert")
        raise ServiceError(400, f"unknown action {action!r}; use one of {choices}")
    if action == "edit" and (text is None or not text.strip()):
        raise ServiceError(400, "an edit needs the corrected text")
    if text is not None and len(text) > MAX_TEXT_CHARS:
        raise ServiceError(413, f"the text is longer than {MAX_TEXT_CHARS} characters")
    async with service.review_lock:
        doc = job_document(service, job_id)
        _, current = doc.block(page, order)
        review = service.reviews.add(
            job_id,
            page,
            order,
            action,  # type: ignore[arg-type]
            text.replace("\r\n", "\n") if action == "edit" and text else None,
            block_text(current),
            who.name,
            who.role,
        )
        await _regenerate(service, doc.job)
    logger.info("job %s: page %d block %d %s by %s", job_id, page, order, action, who.name)
    return review


async def revert(service: Service, job_id: str, review_id: int, who: Principal) -> Review:
    """Undo a decision (the trail keeps both rows) and regenerate the outputs."""
    async with service.review_lock:
        target = service.reviews.get(review_id)
        if target is None or target.job_id != job_id:
            raise ServiceError(404, f"job {job_id} has no decision {review_id}")
        doc = job_document(service, job_id)
        _, current = doc.block(target.page, target.block)
        review = service.reviews.add(
            job_id,
            target.page,
            target.block,
            "revert",
            None,
            block_text(current),
            who.name,
            who.role,
        )
        await _regenerate(service, doc.job)
    logger.info("job %s: decision %d reverted by %s", job_id, review_id, who.name)
    return review


async def _regenerate(service: Service, job: Job) -> None:
    decisions = service.reviews.current(job.id)
    await asyncio.to_thread(regenerate, Path(job.output), decisions, service.options)


def crop_png(service: Service, job_id: str, page: int, order: int) -> bytes:
    """The block cut out of its page rendered afresh from the upload, framed (see
    crops.py: the overlay's tags would hide the characters to check)."""
    doc = job_document(service, job_id)
    block, _ = doc.block(page, order)
    upload = service.upload_path(doc.job)
    if not upload.is_file():
        raise ServiceError(404, f"job {job_id} has no upload to cut page {page} from")
    try:
        image, scale = service.clean_pages.page(upload, page)
    except PagereaderError as exc:
        message = f"page {page} of job {job_id} cannot be rendered: {exc.message}"
        raise ServiceError(404, message) from None
    return block_crop(image, scale, block.block.bbox)


def evalset_zip(service: Service) -> tuple[bytes, int]:
    """The exported evalset as a zip (manifest.jsonl, files/, refs/) and its case count."""
    folder = Path(tempfile.mkdtemp(prefix="evalset-"))
    try:
        summary = export_evalset(service.store, service.reviews, service.uploads, folder)
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(folder.rglob("*")):
                if path.is_file():
                    archive.write(path, f"evalset/{path.relative_to(folder).as_posix()}")
        return buffer.getvalue(), summary.cases
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def review_router(service: Service) -> APIRouter:
    """The routes above, for the app to include."""
    router = APIRouter()

    @router.get("/v1/jobs/{job_id}/blocks")
    async def blocks(job_id: str, _: Reader) -> BlockList:
        doc = await asyncio.to_thread(job_document, service, job_id)
        return BlockList(job=job_id, blocks=block_entries(doc))

    # the body is read by read_json (bounded size and nesting) and checked by ReviewBody: the
    # schema is declared for /openapi.json
    body_schema = {"application/json": {"schema": ReviewBody.model_json_schema()}}

    @router.post(
        "/v1/jobs/{job_id}/reviews",
        status_code=201,
        openapi_extra={"requestBody": {"required": True, "content": body_schema}},
    )
    async def add_review(job_id: str, request: Request, who: Reviewer) -> Review:
        decision = review_body(await read_json(request, MAX_BODY_BYTES))
        page, order, action, text = decision.page, decision.block, decision.action, decision.text
        review = await record_decision(service, job_id, page, order, action, text, who)
        return review

    @router.get("/v1/jobs/{job_id}/reviews")
    async def trail(job_id: str, _: Reader) -> Trail:
        if service.store.get(job_id) is None:
            raise ServiceError(404, f"no job {job_id}")
        return Trail(job=job_id, reviews=service.reviews.trail(job_id))

    @router.delete("/v1/jobs/{job_id}/reviews/{review_id}")
    async def undo(job_id: str, review_id: int, who: Admin) -> Review:
        return await revert(service, job_id, review_id, who)

    @router.get("/v1/jobs/{job_id}/pages/{page}/blocks/{order}.png", response_model=None)
    async def crop(job_id: str, page: int, order: int, _: Reader) -> Any:
        data = await asyncio.to_thread(crop_png, service, job_id, page, order)
        return Response(data, media_type="image/png")

    @router.get("/v1/evalset", response_model=None)
    async def evalset(_: Reader) -> Response:
        data, cases = await asyncio.to_thread(evalset_zip, service)
        return Response(
            data,
            media_type="application/zip",
            headers={
                "Content-Disposition": 'attachment; filename="evalset.zip"',
                "X-Evalset-Cases": str(cases),
            },
        )

    return router
