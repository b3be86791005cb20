"""The document service: upload a file, poll its job, fetch Markdown, JSON, timings and overlays.

Layout of ``data_dir``: ``jobs.sqlite`` (the job store), ``cache.sqlite`` (finished pages, so a
file uploaded again costs nothing), ``uploads/<id>/<name>`` and ``jobs/<id>/`` (the outputs).
Workers are asyncio tasks of the server's own loop; they share one RunContext, so models load
once, and at most ``workers`` documents are parsed at a time.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, File, UploadFile
from fastapi.responses import FileResponse, JSONResponse

from pagereader.cache import PageCache
from pagereader.context import ProgressEvent
from pagereader.errors import PagereaderError
from pagereader.options import Options
from pagereader.pipeline import aparse_to_folder, make_context
from pagereader.service.jobs import FINISHED, JOB_STATUSES, Job, JobStore, new_job_id
from pagereader.sources import SUPPORTED_SUFFIXES
from pagereader.types import DocumentResult, ErrorItem

logger = logging.getLogger(__name__)

MAX_UPLOAD_BYTES = 200 * 1024 * 1024
CHUNK = 1 << 20
OUTPUT_FILES = {
    "document.json": "application/json",
    "document.md": "text/markdown; charset=utf-8",
    "timings.json": "application/json",
    "review.md": "text/markdown; charset=utf-8",
}


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


def _safe_name(filename: str | None) -> str:
    """The upload's base name, without any client-side folders."""
    return (filename or "").replace("\\", "/").rsplit("/", 1)[-1].strip()


class Service:
    """The store, the cache, the shared run context and the workers of one app."""

    def __init__(self, data_dir: Path, options: Options, workers: int) -> None:
        self.data_dir = data_dir
        self.options = options
        self.workers = max(1, workers)
        self.uploads = data_dir / "uploads"
        self.outputs = data_dir / "jobs"
        self.store = JobStore(data_dir / "jobs.sqlite")
        self.cache = PageCache(data_dir / "cache.sqlite")
        self.ctx = make_context(options, on_event=self._on_event)
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        if self.store.requeued:
            logger.warning("re-queued %d interrupted job(s)", self.store.requeued)

    def _on_event(self, event: ProgressEvent) -> None:
        """Pipeline progress -> the job row (the upload folder's name is the job id)."""
        file = event.get("file")
        if not isinstance(file, str):
            return
        path = Path(file)
        if path.parent.parent != self.uploads:
            return
        if event["event"] == "document_start":
            self.store.set_total(path.parent.name, int(event["pages"]))
        elif event["event"] == "page_done":
            self.store.page_done(path.parent.name)

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._work()) for _ in range(self.workers)]
        self._wake.set()

    async def stop(self) -> None:
        """Stop the workers (an interrupted job is re-queued at the next start) and close."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await asyncio.gather(
            *(engine.aclose() for engine in self.ctx.engines.values()), return_exceptions=True
        )
        self.cache.close()
        self.store.close()

    def notify(self) -> None:
        self._wake.set()

    async def _work(self) -> None:
        while True:
            job = self.store.claim()
            if job is None:
                self._wake.clear()
                job = self.store.claim()
            if job is None:
                await self._wake.wait()
                continue
            await self._run(job)

    async def _run(self, job: Job) -> None:
        upload = self.uploads / job.id / job.file_name
        folder = Path(job.output)
        logger.info("job %s: parsing %s", job.id, job.file_name)
        try:
            await asyncio.to_thread(shutil.rmtree, folder, True)
            result = await aparse_to_folder(upload, folder, self.ctx, self.cache)
        except PagereaderError as exc:
            self.store.finish(job.id, "failed", [self._line(job, exc.to_item())])
        except Exception as exc:
            logger.exception("job %s failed", job.id)
            self.store.finish(
                job.id, "failed", [f"{job.file_name}: internal error: {type(exc).__name__}: {exc}"]
            )
        else:
            self._finish(job, result)

    def _finish(self, job: Job, result: DocumentResult) -> None:
        lines = [self._line(job, item) for item in result.errors]
        self.store.finish(job.id, result.status, lines)
        logger.info("job %s: %s, %d page(s)", job.id, result.status, len(result.pages))

    def _line(self, job: Job, item: ErrorItem) -> str:
        """An error line naming the uploaded file, not the server's copy of it."""
        if item.file == str(self.uploads / job.id / job.file_name):
            item = item.model_copy(update={"file": job.file_name})
        return item.line()

    async def submit(self, upload: UploadFile, max_bytes: int) -> JSONResponse:
        """Store an upload and queue its job."""
        name = _safe_name(upload.filename)
        suffix = Path(name).suffix.lower()
        if not name or name.startswith("."):
            return _error(400, "the upload has no file name")
        if suffix not in SUPPORTED_SUFFIXES:
            allowed = ", ".join(sorted(SUPPORTED_SUFFIXES))
            return _error(
                400, f"{name}: unsupported file type {suffix or '(none)'}; supported: {allowed}"
            )
        job_id = new_job_id()
        folder = self.uploads / job_id
        folder.mkdir(parents=True)
        digest, size = hashlib.sha256(), 0
        with (folder / name).open("wb") as handle:
            while chunk := await upload.read(CHUNK):
                size += len(chunk)
                if size > max_bytes:
                    break
                digest.update(chunk)
                handle.write(chunk)
        if size > max_bytes or size == 0:
            shutil.rmtree(folder, ignore_errors=True)
            if size == 0:
                return _error(400, f"{name}: the file is empty")
            return _error(400, f"{name}: larger than the limit of {max_bytes} bytes")
        job = self.store.create(job_id, name, digest.hexdigest(), self.outputs / job_id)
        self.notify()
        return JSONResponse(
            {"id": job.id, "status": job.status},
            status_code=202,
            headers={"Location": f"/v1/jobs/{job.id}"},
        )

    def output(self, job_id: str, relative: str, media_type: str) -> FileResponse | JSONResponse:
        """A finished job's output file; 404 unknown, 409 not finished."""
        job = self.store.get(job_id)
        if job is None:
            return _error(404, f"no job {job_id}")
        if job.status not in FINISHED:
            return _error(409, f"job {job_id} is {job.status}; try again when it has finished")
        path = Path(job.output) / relative
        if not path.is_file():
            return _error(404, f"job {job_id} has no {relative}")
        return FileResponse(path, media_type=media_type)

    async def delete(self, job_id: str) -> JSONResponse:
        job = self.store.get(job_id)
        if job is None:
            return _error(404, f"no job {job_id}")
        if job.status not in FINISHED:
            return _error(409, f"job {job_id} is {job.status}; only finished jobs can be deleted")
        self.store.delete(job_id)
        for folder in (Path(job.output), self.uploads / job_id):
            await asyncio.to_thread(shutil.rmtree, folder, True)
        return JSONResponse({"id": job_id, "deleted": True})


def create_app(
    data_dir: Path, options: Options, workers: int = 1, max_upload_bytes: int = MAX_UPLOAD_BYTES
) -> FastAPI:
    """The service's ASGI app; its lifespan starts and stops the workers."""
    service = Service(Path(data_dir), options, workers)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        service.start()
        try:
            yield
        finally:
            await service.stop()

    app = FastAPI(title="pagereader", lifespan=lifespan)
    app.state.service = service

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        counts = {s: len(service.store.list_jobs(s)) for s in ("queued", "running")}
        return {"status": "ok", "workers": service.workers, **counts}

    @app.post("/v1/documents", status_code=202)
    async def submit(file: Annotated[UploadFile | None, File()] = None) -> JSONResponse:
        if file is None:
            return _error(400, "send one file as the multipart field 'file'")
        return await service.submit(file, max_upload_bytes)

    @app.get("/v1/jobs", response_model=None)
    async def list_jobs(status: str | None = None) -> dict[str, Any] | JSONResponse:
        if status is not None and status not in JOB_STATUSES:
            return _error(400, f"unknown status {status!r}; use one of {', '.join(JOB_STATUSES)}")
        return {"jobs": [job_json(job) for job in service.store.list_jobs(status)]}

    @app.get("/v1/jobs/{job_id}", response_model=None)
    async def get_job(job_id: str) -> dict[str, Any] | JSONResponse:
        job = service.store.get(job_id)
        return job_json(job) if job else _error(404, f"no job {job_id}")

    @app.get("/v1/jobs/{job_id}/pages/{page}.png", response_model=None)
    async def get_page(job_id: str, page: int) -> FileResponse | JSONResponse:
        return service.output(job_id, f"pages/{page:03d}.png", "image/png")

    @app.get("/v1/jobs/{job_id}/{name}", response_model=None)
    async def get_output(job_id: str, name: str) -> FileResponse | JSONResponse:
        if name not in OUTPUT_FILES:
            return _error(404, f"no such output {name!r}; one of {', '.join(OUTPUT_FILES)}")
        return service.output(job_id, name, OUTPUT_FILES[name])

    @app.delete("/v1/jobs/{job_id}", response_model=None)
    async def delete_job(job_id: str) -> JSONResponse:
        return await service.delete(job_id)

    return app
