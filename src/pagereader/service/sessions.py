"""Browser sessions of the web UI: a token typed once into the login form becomes an opaque
session cookie (HttpOnly, SameSite=Strict), so the token itself never sits in the browser.

Only the SHA-256 of a session id is stored (SQLite, so a restart logs nobody out); each session
has its own CSRF token, which every state-changing request made with the cookie must echo (a
form field or the ``X-CSRF-Token`` header). A session whose name and role no longer match a
loaded token is refused.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from fastapi import Request, Response

from pagereader.http.auth import COOKIE, CSRF_HEADER, Principal, Role
from pagereader.service.sqlite import open_store

__all__ = [
    "COOKIE",
    "CSRF_FIELD",
    "CSRF_HEADER",
    "Session",
    "SessionStore",
    "set_session_cookie",
]
CSRF_FIELD = "csrf_token"
SESSION_SECONDS = 12 * 3600

SCHEMA_STEPS = (
    """
CREATE TABLE IF NOT EXISTS sessions (
    digest TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    csrf TEXT NOT NULL,
    expires REAL NOT NULL
);
""",
)
"""The schema, step by step (store.py): a new column or index is a new step at the end."""


@dataclass(frozen=True)
class Session:
    """A logged-in browser: who it is and the CSRF token its forms carry."""

    principal: Principal
    csrf: str

    def csrf_ok(self, presented: str | None) -> bool:
        """Whether a request echoed this session's CSRF token (constant-time compare)."""
        return bool(presented) and hmac.compare_digest(self.csrf, str(presented))


def _digest(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


class SessionStore:
    """Sessions in one SQLite file; safe from any thread."""

    def __init__(self, path: Path) -> None:
        self._lock = threading.Lock()
        self._db = open_store(path, SCHEMA_STEPS)
        with self._lock:
            self._db.execute("DELETE FROM sessions WHERE expires < ?", (time.time(),))

    def create(self, principal: Principal) -> tuple[str, Session]:
        """A new session; returns the cookie value (never stored) and the session."""
        session_id = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(32)
        expires = time.time() + SESSION_SECONDS
        with self._lock:
            self._db.execute(
                "INSERT INTO sessions (digest, name, role, csrf, expires) VALUES (?, ?, ?, ?, ?)",
                (_digest(session_id), principal.name, principal.role, csrf, expires),
            )
        return session_id, Session(principal, csrf)

    def get(self, session_id: str | None) -> Session | None:
        """The live session of a cookie value, if any."""
        if not session_id:
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT name, role, csrf FROM sessions WHERE digest=? AND expires>=?",
                (_digest(session_id), time.time()),
            ).fetchone()
        if row is None:
            return None
        role: Role = row[1]
        return Session(Principal(row[0], role), row[2])

    def delete(self, session_id: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM sessions WHERE digest=?", (_digest(session_id),))

    def close(self) -> None:
        with self._lock:
            self._db.close()


def set_session_cookie(response: Response, request: Request, session_id: str) -> None:
    """The one way the session cookie is set: HTTP-only, same-site strict, for the whole
    site, and secure whenever the request came over HTTPS."""
    response.set_cookie(
        COOKIE,
        session_id,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        path="/",
    )
