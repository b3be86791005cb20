"""The document service: upload a file, poll its job, fetch Markdown, JSON, timings and overlays.

Layout of ``data_dir``: ``jobs.sqlite`` (the job store), ``cache.sqlite`` (finished pages, so a
file uploaded again costs nothing), ``uploads/<id>/<name>`` and ``jobs/<id>/`` (the outputs).
Every route but ``/healthz`` needs a token of the right role once tokens are configured
(auth.py); cross-origin browser requests are refused (origin.py); uploads are limited while
they stream in (uploads.py).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from starlette.exceptions import HTTPException

from pagereader.options import Options
from pagereader.service.auth import Principal, TokenStore, require
from pagereader.service.jobs import FINISHED, JOB_STATUSES, Job, new_job_id
from pagereader.service.limits import ServiceLimits
from pagereader.service.origin import OriginGuard
from pagereader.service.runner import Service
from pagereader.service.uploads import UploadRefused, check_image_pixels, receive_upload

logger = logging.getLogger(__name__)

OUTPUT_FILES = {
    "document.json": "application/json",
    "document.md": "text/markdown; charset=utf-8",
    "timings.json": "application/json",
    "review.md": "text/markdown; charset=utf-8",
}
Reader = Annotated[Principal, Depends(require("reader"))]
Reviewer = Annotated[Principal, Depends(require("reviewer"))]
Admin = Annotated[Principal, Depends(require("admin"))]


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def job_json(job: Job) -> dict[str, Any]:
    """A job as the API shows it (no server paths)."""
    return {
        "id": job.id,
        "file": job.file_name,
        "sha256": job.sha256,
        "status": job.status,
        "pages_done": job.pages_done,
        "pages_total": job.pages_total,
        "errors": job.errors,
        "created": job.created,
        "finished": job.finished,
    }


async def _submit(service: Service, request: Request) -> JSONResponse:
    """Store a streamed upload and queue its job."""
    job_id = new_job_id()
    folder = service.uploads / job_id

    def make_folder() -> Path:
        folder.mkdir(parents=True)
        return folder

    limits = service.limits
    try:
        stored = await receive_upload(
            dict(request.headers),
            request.stream(),
            make_folder,
            limits.max_upload_bytes,
            limits.max_field_bytes,
        )
        try:
            check_image_pixels(stored.path, stored.name, service.options.render.max_image_pixels)
        except UploadRefused:
            stored.path.unlink(missing_ok=True)
            folder.rmdir()
            raise
    except UploadRefused as exc:
        answer = _error(exc.status, exc.message)
        if exc.status == 413:
            answer.headers["Connection"] = "close"  # do not read the rest of a huge body
        return answer
    job = service.store.create(job_id, stored.name, stored.sha256, service.outputs / job_id)
    service.notify()
    logger.info("job %s: queued %s (%d bytes)", job.id, job.file_name, stored.size)
    return JSONResponse(
        {"id": job.id, "status": job.status, "file": job.file_name},
        status_code=202,
        headers={"Location": f"/v1/jobs/{job.id}"},
    )


def _output(service: Service, job_id: str, relative: str, media_type: str) -> Any:
    """A finished job's output file; 404 unknown, 409 not finished."""
    job = service.store.get(job_id)
    if job is None:
        return _error(404, f"no job {job_id}")
    if job.status not in FINISHED:
        return _error(409, f"job {job_id} is {job.status}; try again when it has finished")
    path = Path(job.output) / relative
    if not path.is_file():
        return _error(404, f"job {job_id} has no {relative}")
    return FileResponse(path, media_type=media_type)


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

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        service.start()
        try:
            yield
        finally:
            await service.stop()

    app = FastAPI(
        title="pagereader", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )
    app.state.service = service
    app.state.tokens = tokens
    app.add_middleware(OriginGuard, allowed_origins=limits.allowed_origins, open_api=not tokens)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        counts = {s: len(service.store.list_jobs(s)) for s in ("queued", "running")}
        return {"status": "ok", "workers": service.workers, **counts}

    @app.post("/v1/documents", status_code=202)
    async def submit(request: Request, _: Reviewer) -> JSONResponse:
        return await _submit(service, request)

    @app.get("/v1/jobs", response_model=None)
    async def list_jobs(_: Reader, status: str | None = None) -> dict[str, Any] | JSONResponse:
        if status is not None and status not in JOB_STATUSES:
            return _error(400, f"unknown status {status!r}; use one of {', '.join(JOB_STATUSES)}")
        return {"jobs": [job_json(job) for job in service.store.list_jobs(status)]}

    @app.get("/v1/jobs/{job_id}", response_model=None)
    async def get_job(job_id: str, _: Reader) -> dict[str, Any] | JSONResponse:
        job = service.store.get(job_id)
        return job_json(job) if job else _error(404, f"no job {job_id}")

    @app.get("/v1/jobs/{job_id}/pages/{page}.png", response_model=None)
    async def get_page(job_id: str, page: int, _: Reader) -> Any:
        return _output(service, job_id, f"pages/{page:03d}.png", "image/png")

    @app.get("/v1/jobs/{job_id}/{name}", response_model=None)
    async def get_output(job_id: str, name: str, _: Reader) -> Any:
        if name not in OUTPUT_FILES:
            return _error(404, f"no such output {name!r}; one of {', '.join(OUTPUT_FILES)}")
        return _output(service, job_id, name, OUTPUT_FILES[name])

    @app.delete("/v1/jobs/{job_id}", response_model=None)
    async def delete_job(job_id: str, caller: Admin) -> JSONResponse:
        job, cancelled = await service.delete(job_id)
        if job is None:
            return _error(404, f"no job {job_id}")
        logger.info("job %s: deleted by %s", job_id, caller.name)
        return JSONResponse({"id": job_id, "deleted": True, "cancelled": cancelled})

    if limits.docs:

        @app.get("/openapi.json", include_in_schema=False)
        async def openapi(_: Reader) -> JSONResponse:
            return JSONResponse(app.openapi())

        @app.get("/docs", include_in_schema=False)
        async def docs(_: Reader) -> HTMLResponse:
            return get_swagger_ui_html(openapi_url="/openapi.json", title="pagereader API")

    return app
