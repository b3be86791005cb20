"""The web UI: server-rendered pages (Jinja2, autoescaped) and form posts, at ``/ui/``.

Pages: the jobs list with upload and live progress (``/ui/``), a job's document view
(``/ui/jobs/{id}``) and its review queue (``/ui/jobs/{id}/review``). A browser logs in once
with its token (``/ui/login``) and then carries a session cookie; every form post must carry
the session's CSRF token. Scripts are static files (the CSP allows no inline script), and
every recognized text is escaped by the templates.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from pathlib import Path
from typing import Any

import jinja2
from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from pagereader.http.auth import ANONYMOUS, COOKIE, Principal, TokenStore
from pagereader.http.errors import ServiceError
from pagereader.render.files import overlay_name
from pagereader.service.jobs.store import FINISHED, Job
from pagereader.service.jobs.submit import submit_upload
from pagereader.service.reviews.api import block_entries, job_document, record_decision
from pagereader.service.sessions import CSRF_FIELD, Session, SessionStore, set_session_cookie
from pagereader.service.workers import Service

logger = logging.getLogger(__name__)

HERE = Path(__file__).parent
templates = Jinja2Templates(
    env=jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
)
CORRECTED = frozenset({"retry", "escalate", "fallback"})


class LoginRequired(Exception):
    """A UI page asked for without a session: the handler answers with a redirect."""


def static_files() -> StaticFiles:
    return StaticFiles(directory=str(HERE / "static"))


def verdict_class(verdict: str, decided: bool) -> str:
    """The CSS class of a block outline: a person's decision, else the verifier's."""
    if decided:
        return "decided"
    if verdict == "review":
        return "review"
    return "corrected" if verdict in CORRECTED else "accepted"


JOBS_PER_PAGE = 50
"""Rows of the jobs page, newest first."""


def _job_rows(service: Service, page_number: int) -> tuple[list[dict[str, Any]], bool]:
    """One page of the jobs table and whether older jobs follow (in a worker thread: it reads
    the stores and each finished job's flagged blocks)."""
    start = (page_number - 1) * JOBS_PER_PAGE
    newest = service.store.newest(start, JOBS_PER_PAGE + 1)
    rows = []
    for job in newest[:JOBS_PER_PAGE]:
        flagged = service.flagged(job)
        open_flags = len(flagged - service.reviews.current(job.id).keys()) if flagged else 0
        rows.append(
            {
                "job": job,
                "flagged": len(flagged),
                "open": open_flags,
                "time": _duration(job),
                "finished": job.status in FINISHED,
            }
        )
    return rows, len(newest) > JOBS_PER_PAGE


def _duration(job: Job) -> str:
    if not job.finished:
        return ""
    seconds = (
        datetime.fromisoformat(job.finished) - datetime.fromisoformat(job.created)
    ).total_seconds()
    return f"{seconds:.1f} s"


def ui_router(service: Service, tokens: TokenStore, sessions: SessionStore) -> APIRouter:
    """The UI's routes, for the app to include."""
    router = APIRouter(include_in_schema=False)

    def session_of(request: Request) -> Session:
        session = sessions.get(request.cookies.get(COOKIE))
        if session is None or not tokens.knows(session.principal):
            raise LoginRequired
        return session

    def page(request: Request, name: str, session: Session | None, **context: Any) -> Response:
        return templates.TemplateResponse(
            request,
            name,
            {"session": session, "user": session.principal if session else None, **context},
        )

    def form_refused(session: Session, form: Any, needed: str) -> Response | None:
        if not session.csrf_ok(form.get(CSRF_FIELD)):
            return HTMLResponse("the CSRF token is missing or wrong; reload the page", 403)
        if not session.principal.can(needed):  # type: ignore[arg-type]
            return HTMLResponse(f"this needs the {needed} role", 403)
        return None

    @router.get("/ui", response_model=None)
    async def ui_root() -> Response:
        return RedirectResponse("/ui/", 307)

    @router.get("/ui/login", response_model=None)
    async def login_form(request: Request, error: str = "") -> Response:
        return page(request, "login.html", None, error=error, open_service=not tokens)

    @router.post("/ui/login", response_model=None)
    async def login(request: Request) -> Response:
        form = await request.form()
        token = str(form.get("token", "")).strip()
        principal: Principal | None = tokens.lookup(token) if tokens else ANONYMOUS
        if principal is None:
            logger.info("UI login refused")
            return RedirectResponse("/ui/login?error=unknown+token", 303)
        session_id, _ = sessions.create(principal)
        response = RedirectResponse("/ui/", 303)
        set_session_cookie(response, request, session_id)
        logger.info("UI login: %s (%s)", principal.name, principal.role)
        return response

    @router.post("/ui/logout", response_model=None)
    async def logout(request: Request) -> Response:
        session = session_of(request)
        refused = form_refused(session, await request.form(), "reader")
        if refused:
            return refused
        sessions.delete(request.cookies.get(COOKIE, ""))
        response = RedirectResponse("/ui/login", 303)
        response.delete_cookie(COOKIE, path="/")
        return response

    @router.get("/ui/", response_model=None)
    async def jobs(request: Request, page_number: int = Query(1, ge=1, alias="page")) -> Response:
        session = session_of(request)
        rows, more = await asyncio.to_thread(_job_rows, service, page_number)
        return page(request, "jobs.html", session, rows=rows, page_number=page_number, more=more)

    @router.post("/ui/upload", response_model=None)
    async def upload(request: Request) -> Response:
        session = session_of(request)
        if not session.principal.can("reviewer"):
            return HTMLResponse("uploading needs the reviewer role", 403)
        await submit_upload(service, request, session.csrf)
        return RedirectResponse("/ui/", 303)

    @router.post("/ui/jobs/{job_id}/delete", response_model=None)
    async def delete(request: Request, job_id: str) -> Response:
        session = session_of(request)
        refused = form_refused(session, await request.form(), "admin")
        if refused:
            return refused
        job, _cancelled = await service.delete(job_id)
        if job is None:
            return HTMLResponse(f"no job {job_id}", 404)
        logger.info("job %s: deleted by %s", job_id, session.principal.name)
        return RedirectResponse("/ui/", 303)

    @router.get("/ui/jobs/{job_id}", response_model=None)
    async def document(request: Request, job_id: str) -> Response:
        session = session_of(request)
        try:
            doc = await asyncio.to_thread(job_document, service, job_id)
        except ServiceError as exc:
            return HTMLResponse(exc.message, exc.status)
        pages = []
        for page_result in doc.corrected.pages:
            blocks = []
            for block in sorted(page_result.blocks, key=lambda b: b.block.order):
                key = (page_result.index, block.block.order)
                original, _ = doc.block(*key)
                blocks.append(
                    {
                        "block": block,
                        "css": verdict_class(original.verdict.outcome, key in doc.decisions),
                        "verdict": original.verdict.outcome,
                        "decision": doc.decisions.get(key),
                    }
                )
            has_image = (Path(doc.job.output) / overlay_name(page_result.index)).is_file()
            pages.append({"page": page_result, "blocks": blocks, "image": has_image})
        return page(request, "document.html", session, job=doc.job, pages=pages)

    @router.get("/ui/jobs/{job_id}/review", response_model=None)
    async def review_queue(request: Request, job_id: str) -> Response:
        session = session_of(request)
        try:
            doc = await asyncio.to_thread(job_document, service, job_id)
        except ServiceError as exc:
            return HTMLResponse(exc.message, exc.status)
        entries = [
            {**e.model_dump(), "css": verdict_class(e.verdict, e.decision is not None)}
            for e in block_entries(doc)
        ]
        can_review = session.principal.can("reviewer")
        return page(
            request, "review.html", session, job=doc.job, entries=entries, can_review=can_review
        )

    @router.post("/ui/jobs/{job_id}/review", response_model=None)
    async def review_post(request: Request, job_id: str) -> Response:
        session = session_of(request)
        form = await request.form()
        refused = form_refused(session, form, "reviewer")
        if refused:
            return refused
        try:
            page_number, order = int(str(form.get("page"))), int(str(form.get("block")))
            text = form.get("text")
            await record_decision(
                service,
                job_id,
                page_number,
                order,
                str(form.get("action", "")),
                str(text) if text is not None else None,
                session.principal,
            )
        except ValueError:
            return HTMLResponse("page and block must be numbers", 400)
        except ServiceError as exc:
            return HTMLResponse(exc.message, exc.status)
        return RedirectResponse(f"/ui/jobs/{job_id}/review#b-{page_number}-{order}", 303)

    return router
