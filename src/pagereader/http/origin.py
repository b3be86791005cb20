"""Closed CORS: a browser page of another origin gets no answer from the service.

Browsers send ``Origin`` on cross-origin requests (and ``Sec-Fetch-Site``); a request whose
origin is neither the service's own nor listed in ``allowed_origins`` is refused with 403 before
any handler runs, so a foreign page can neither read nor change jobs. No CORS header is ever sent
except to a listed origin. An open service (no tokens) also checks the Host header against the
loopback names, so a DNS-rebinding page cannot pose as same-origin. ``serve`` and
``serve-engine`` both run behind it; their JSON endpoints also refuse any body type but JSON
(json_body.py), the one a foreign page cannot send without asking first.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pagereader.http.auth import is_loopback
from pagereader.http.errors import error_body

logger = logging.getLogger(__name__)

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    # same-origin, not no-referrer: under no-referrer a browser sends "Origin: null" with the
    # UI's own form posts, which this guard must refuse
    (b"referrer-policy", b"same-origin"),
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
]


ErrorBody = Callable[[int, str], Any]


def _plain_error(status: int, message: str) -> Any:
    """The service's error body; serve-engine passes its OpenAI-style one instead."""
    return error_body(status, message)


def _host_name(host: str) -> str:
    """The name part of a Host header ("[::1]:8080" -> "::1", "a:80" -> "a")."""
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class OriginGuard:
    """ASGI middleware refusing cross-origin and (when open) non-loopback-Host requests."""

    def __init__(
        self,
        app: ASGIApp,
        allowed_origins: tuple[str, ...],
        open_api: bool,
        error_body: ErrorBody = _plain_error,
    ) -> None:
        self.app = app
        self.allowed = frozenset(o.rstrip("/") for o in allowed_origins)
        self.open_api = open_api
        self.error_body = error_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        origin = headers.get("origin", "").rstrip("/")
        if self.open_api and not is_loopback(_host_name(host)):
            await self._refuse(
                send, f"host {host!r} refused: this service answers loopback names only"
            )
            return
        listed = origin in self.allowed
        own = origin == f"{scope.get('scheme', 'http')}://{host}"
        if origin and not (own or listed):
            await self._refuse(send, f"cross-origin request from {origin} refused")
            return
        site = headers.get("sec-fetch-site", "")
        if site in ("cross-site", "same-site") and not listed:
            await self._refuse(send, "cross-site request refused")
            return
        if listed and scope["method"] == "OPTIONS":
            await _preflight(send, origin)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = list(SECURITY_HEADERS)
                if listed:
                    extra += [
                        (b"access-control-allow-origin", origin.encode()),
                        (b"vary", b"Origin"),
                    ]
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _refuse(self, send: Send, message: str) -> None:
        logger.info("refused: %s", message)
        await _respond(send, 403, self.error_body(403, message), [])


async def _preflight(send: Send, origin: str) -> None:
    headers = [
        (b"access-control-allow-origin", origin.encode()),
        (b"access-control-allow-methods", b"GET, POST, DELETE"),
        (b"access-control-allow-headers", b"authorization, content-type"),
        (b"access-control-max-age", b"600"),
        (b"vary", b"Origin"),
    ]
    await _respond(send, 204, None, headers)


async def _respond(send: Send, status: int, body: Any, headers: list[tuple[bytes, bytes]]) -> None:
    data = json.dumps(body).encode() if body is not None else b""
    start_headers = [*headers, *SECURITY_HEADERS]
    if body is not None:
        start_headers += [(b"content-type", b"application/json")]
    start_headers.append((b"content-length", str(len(data)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": start_headers})
    await send({"type": "http.response.body", "body": data})
