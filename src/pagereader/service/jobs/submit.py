"""One upload, from the API or from the UI's form: stream it into its folder, check it, queue
its job."""

from __future__ import annotations

import hmac
import logging
import shutil
from pathlib import Path

from fastapi import Request

from pagereader.http.errors import ServiceError
from pagereader.service.jobs.store import Job, new_job_id
from pagereader.service.jobs.uploads import check_image_pixels, receive_upload
from pagereader.service.sessions import CSRF_FIELD
from pagereader.service.workers import Service

logger = logging.getLogger(__name__)


async def submit_upload(service: Service, request: Request, csrf: str | None = None) -> Job:
    """Store a streamed upload and queue its job. With ``csrf`` (a UI form), the form's
    CSRF field must match it, else the stored file is removed again (ServiceError 403)."""
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
            if csrf is not None and not hmac.compare_digest(
                stored.fields.get(CSRF_FIELD, ""), csrf
            ):
                raise ServiceError(403, "the CSRF token is missing or wrong; reload the page")
            check_image_pixels(stored.path, stored.name, service.options.render.max_image_pixels)
        except ServiceError:
            shutil.rmtree(folder, ignore_errors=True)
            raise
    except ServiceError as exc:
        if exc.status == 413:
            exc.headers["Connection"] = "close"  # do not read the rest of a huge body
        raise
    job = service.store.create(job_id, stored.name, stored.sha256, service.outputs / job_id)
    service.notify()
    logger.info("job %s: queued %s (%d bytes)", job.id, job.file_name, stored.size)
    return job
