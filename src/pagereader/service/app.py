"""The document service: upload a file, poll its job, fetch Markdown, JSON, chunks, timings and
overlays.

Layout of ``data_dir``: ``jobs.sqlite`` (the job store), ``cache.sqlite`` (finished pages, so a
file uploaded again costs nothing), ``uploads/<id>/<name>`` and ``jobs/<id>/`` (the outputs).
Every route but ``/healthz`` needs a token of the right role once tokens are configured
(http/auth.py), or the web UI's session cookie (sessions.py, ui/); cross-origin browser
requests are refused (http/origin.py); uploads are limited while they stream in
(jobs/uploads.py). Reviews and the evalset are in reviews/routes.py, ``/metrics`` in
metrics.py.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response

from pagereader.config.options import Options
from pagereader.document.outputs import OUTPUTS
from pagereader.http.auth import ANONYMOUS, TokenStore
from pagereader.http.errors import ServiceError
from pagereader.http.origin import OriginGuard
from pagereader.render.files import CHUNKS_JSONL, OVERLAY_TYPE, overlay_name
from pagereader.service.deps import Admin, Reader, Reviewer
from pagereader.service.error_handlers import install_error_handlers
from pagereader.service.jobs.store import FINISHED, JOB_STATUSES
from pagereader.service.jobs.submit import submit_upload
from pagereader.service.policy import ServiceLimits
from pagereader.service.prometheus import CONTENT_TYPE
from pagereader.service.reviews.api import review_router
from pagereader.service.schemas import ChunkList, Deleted, Health, JobPage, JobView, Submitted
from pagereader.service.sessions import SessionStore, set_session_cookie
from pagereader.service.ui.views import LoginRequired, static_files, ui_router
from pagereader.service.workers import Service
from pagereader.structure.chunks import read_chunks_jsonl

logger = logging.getLogger(__name__)


#: The upload's body (read as a stream by uploads.py), declared for /openapi.json.
UPLOAD_SCHEMA = {
    "multipart/form-data": {
        "schema": {
            "type": "object",
            "required": ["file"],
            "properties": {"file": {"type": "string", "format": "binary"}},
        }
    }
}
JOBS_PER_PAGE = 100
MAX_JOBS_PER_PAGE = 1000


def _after(cursor: str | None) -> int | None:
    """The row number a ``cursor`` from an earlier page stands for."""
    if cursor is None:
        return None
    if not cursor.isascii() or not cursor.isdigit() or len(cursor) > 18:
        raise ServiceError(400, f"cursor {cursor[:40]!r} is not one this service gave out")
    return int(cursor)


def _output_path(service: Service, job_id: str, relative: str) -> Path:
    """A finished job's output file; ServiceError 404 unknown, 409 not finished."""
    job = service.store.get(job_id)
    if job is None:
        raise ServiceError(404, f"no job {job_id}")
    if job.status not in FINISHED:
        raise ServiceError(409, f"job {job_id} is {job.status}; try again when it has finished")
    path = Path(job.output) / relative
    if not path.is_file():
        raise ServiceError(404, f"job {job_id} has no {relative}")
    return path


def _output(service: Service, job_id: str, relative: str, media_type: str) -> Any:
    return FileResponse(_output_path(service, job_id, relative), media_type=media_type)


def create_app(
    data_dir: Path,
    options: Options,
    workers: int = 1,
    limits: ServiceLimits | None = None,
    tokens: TokenStore | None = None,
) -> FastAPI:
    """The service's ASGI app; its lifespan starts and stops the workers."""
    limits = limits or ServiceLimits()
    tokens = tokens or TokenStore()
    service = Service(Path(data_dir), options, workers, limits)
    sessions = SessionStore(Path(data_dir) / "sessions.sqlite")

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        service.start()
        try:
            yield
        finally:
            await service.stop(limits.shutdown_grace_s)
            sessions.close()

    app = FastAPI(
        title="pagereader", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )
    app.state.service = service
    app.state.tokens = tokens
    app.state.sessions = sessions
    app.add_middleware(OriginGuard, allowed_origins=limits.allowed_origins, open_api=not tokens)

    install_error_handlers(app)

    @app.exception_handler(LoginRequired)
    async def login_required(request: Request, _: LoginRequired) -> Response:
        if tokens:
            return RedirectResponse("/ui/login", 303)
        session_id, _session = sessions.create(ANONYMOUS)  # an open service needs no login
        answer = RedirectResponse(str(request.url.path), 303)
        set_session_cookie(answer, request, session_id)
        return answer

    app.include_router(review_router(service))
    app.include_router(ui_router(service, tokens, sessions))
    app.mount("/ui/static", static_files(), name="static")

    @app.get("/metrics", include_in_schema=False)
    async def metrics(_: Reader) -> Response:
        # the review queue reads finished jobs' outputs once each: off the event loop
        data = await asyncio.to_thread(service.metrics.exposition)
        return Response(data, media_type=CONTENT_TYPE)

    @app.get("/healthz")
    async def healthz() -> Health:
        queued, running = (service.store.count(s) for s in ("queued", "running"))
        engines = service.engines.status()
        return Health(
            status="ok", workers=service.workers, queued=queued, running=running, engines=engines
        )

    @app.post(
        "/v1/documents",
        status_code=202,
        openapi_extra={"requestBody": {"required": True, "content": UPLOAD_SCHEMA}},
    )
    async def submit(request: Request, response: Response, _: Reviewer) -> Submitted:
        job = await submit_upload(service, request)
        response.headers["Location"] = f"/v1/jobs/{job.id}"
        return Submitted(id=job.id, status=job.status, file=job.file_name)

    @app.get("/v1/jobs")
    async def list_jobs(
        _: Reader,
        status: str | None = None,
        limit: Annotated[int, Query(ge=1, le=MAX_JOBS_PER_PAGE)] = JOBS_PER_PAGE,
        cursor: str | None = None,
    ) -> JobPage:
        if status is not None and status not in JOB_STATUSES:
            raise ServiceError(
                400, f"unknown status {status!r}; use one of {', '.join(JOB_STATUSES)}"
            )
        after = _after(cursor)
        jobs, last = await asyncio.to_thread(service.store.page, limit, after, status)
        return JobPage(
            jobs=[JobView.of(job) for job in jobs],
            next_cursor=None if last is None else str(last),
        )

    @app.get("/v1/jobs/{job_id}")
    async def get_job(job_id: str, _: Reader) -> JobView:
        job = service.store.get(job_id)
        if job is None:
            raise ServiceError(404, f"no job {job_id}")
        return JobView.of(job)

    @app.get("/v1/jobs/{job_id}/pages/{page}.png", response_model=None)
    async def get_page(job_id: str, page: int, _: Reader) -> Any:
        return _output(service, job_id, overlay_name(page), OVERLAY_TYPE)

    @app.get("/v1/jobs/{job_id}/chunks")
    async def get_chunks(job_id: str, _: Reader) -> ChunkList:
        path = _output_path(service, job_id, CHUNKS_JSONL.name)
        text = await asyncio.to_thread(path.read_text, encoding="utf-8")
        return ChunkList(job=job_id, chunks=list(read_chunks_jsonl(text)))

    @app.get("/v1/jobs/{job_id}/{name}", response_model=None)
    async def get_output(job_id: str, name: str, _: Reader) -> Any:
        file = OUTPUTS.file(name)
        if file is None:
            names = ", ".join(OUTPUTS.names())
            raise ServiceError(404, f"no such output {name!r}; one of {names}")
        return _output(service, job_id, file.name, file.media_type)

    @app.delete("/v1/jobs/{job_id}")
    async def delete_job(job_id: str, caller: Admin) -> Deleted:
        job, cancelled = await service.delete(job_id)
        if job is None:
            raise ServiceError(404, f"no job {job_id}")
        logger.info("job %s: deleted by %s", job_id, caller.name)
        return Deleted(id=job_id, deleted=True, cancelled=cancelled)

    if limits.docs:

        @app.get("/openapi.json", include_in_schema=False)
        async def openapi(_: Reader) -> JSONResponse:
            return JSONResponse(app.openapi())

        @app.get("/docs", include_in_schema=False)
        async def docs(_: Reader) -> HTMLResponse:
            return get_swagger_ui_html(openapi_url="/openapi.json", title="pagereader API")

    return app
