"""API tokens and roles.

A token file (``--token-file``) or ``PAGEREADER_TOKENS`` holds one entry per line (or per comma
in the variable): ``NAME:ROLE:TOKEN``, ``#`` starts a comment. Roles are ordered: a ``reader``
lists jobs and fetches outputs, a ``reviewer`` may also upload (and correct), an ``admin`` may also
delete and cancel jobs. Requests carry ``Authorization: Bearer TOKEN``; the presented token is
compared with every known token in constant time (hmac.compare_digest over SHA-256 digests), so
neither its length nor a shared prefix leaks through timing. Without tokens the service answers
everyone as ``admin`` and therefore binds to loopback only.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from starlette.requests import Request  # FastAPI's Request is this class

from pagereader.errors import ConfigError
from pagereader.http.errors import ServiceError

logger = logging.getLogger(__name__)

Role = Literal["reader", "reviewer", "admin"]
ROLES: tuple[Role, ...] = get_args(Role)
MIN_TOKEN_CHARS = 16


@dataclass(frozen=True)
class Principal:
    """Who made a request: the token's name and role."""

    name: str
    role: Role

    def can(self, needed: Role) -> bool:
        """Whether this role includes ``needed`` (reader < reviewer < admin)."""
        return ROLES.index(self.role) >= ROLES.index(needed)


ANONYMOUS = Principal("anonymous", "admin")


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


class TokenStore:
    """The known tokens; empty means the service is open (loopback only)."""

    def __init__(self, entries: list[tuple[Principal, str]] | None = None) -> None:
        self._entries = [(principal, _digest(token)) for principal, token in entries or []]

    def __bool__(self) -> bool:
        return bool(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    @classmethod
    def parse(cls, text: str, origin: str) -> TokenStore:
        """Entries ``NAME:ROLE:TOKEN`` separated by newlines or commas; ``origin`` names the
        file or variable in errors."""
        entries: list[tuple[Principal, str]] = []
        names: set[str] = set()
        for number, raw in enumerate(text.replace(",", "\n").splitlines(), 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            name, _, rest = line.partition(":")
            role, _, token = rest.partition(":")
            where = f"{origin}: entry {number}"
            if not name or role not in ROLES or not token:
                raise ConfigError(
                    f"{where}: expected NAME:ROLE:TOKEN with ROLE one of {', '.join(ROLES)}",
                    file=origin,
                    hint="one entry per line, e.g. alice:admin:<random token>",
                )
            if len(token) < MIN_TOKEN_CHARS or any(c.isspace() for c in token):
                raise ConfigError(
                    f"{where}: the token of {name!r} is shorter than {MIN_TOKEN_CHARS} "
                    "characters or has spaces",
                    file=origin,
                    hint="make one: python -c 'import secrets; print(secrets.token_urlsafe())'",
                )
            if name in names:
                raise ConfigError(f"{where}: the name {name!r} appears twice", file=origin)
            names.add(name)
            entries.append((Principal(name, role), token))
        if not entries:
            raise ConfigError(f"{origin}: no tokens", file=origin, hint="add NAME:ROLE:TOKEN lines")
        return cls(entries)

    @classmethod
    def load(cls, token_file: Path | None, env_value: str | None) -> TokenStore:
        """Tokens from the file and the variable together (both may be given)."""
        store = cls()
        if token_file is not None:
            try:
                text = token_file.read_text(encoding="utf-8")
            except OSError as exc:
                raise ConfigError(
                    f"cannot read the token file: {exc.strerror}", file=token_file
                ) from exc
            store._entries += cls.parse(text, str(token_file))._entries
        if env_value:
            store._entries += cls.parse(env_value, "PAGEREADER_TOKENS")._entries
        return store

    def knows(self, principal: Principal) -> bool:
        """Whether a loaded token still has this name and role (checks browser sessions)."""
        return any(p == principal for p, _ in self._entries) or (
            not self and principal == ANONYMOUS
        )

    def lookup(self, token: str) -> Principal | None:
        """The principal of a presented token; every entry is compared, match or not."""
        presented = _digest(token)
        found: Principal | None = None
        for principal, digest in self._entries:
            if hmac.compare_digest(presented, digest) and found is None:
                found = principal
        return found

    def authenticate(self, authorization: str | None) -> Principal:
        """The caller of a request from its Authorization header; HTTP 401 when unknown."""
        if not self:
            return ANONYMOUS
        scheme, _, token = (authorization or "").partition(" ")
        principal = self.lookup(token.strip()) if scheme.lower() == "bearer" else None
        if principal is None:
            raise ServiceError(
                401,
                "a valid token is required: send 'Authorization: Bearer <token>'",
                headers={"WWW-Authenticate": "Bearer"},
            )
        return principal


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
COOKIE = "pagereader_session"
CSRF_HEADER = "x-csrf-token"


def caller(request: Request) -> Principal:
    """Who makes a request: the bearer token when one is sent, else the browser session of the
    web UI (whose state-changing requests must carry its CSRF token), else the open service's
    anonymous admin (or 401 when tokens are configured)."""
    tokens: TokenStore = request.app.state.tokens
    authorization = request.headers.get("authorization")
    sessions = getattr(request.app.state, "sessions", None)
    if authorization is None and sessions is not None:
        session = sessions.get(request.cookies.get(COOKIE))
        if session is not None and tokens.knows(session.principal):
            if request.method not in SAFE_METHODS and not session.csrf_ok(
                request.headers.get(CSRF_HEADER)
            ):
                raise ServiceError(403, "the CSRF token is missing or wrong; reload the page")
            principal: Principal = session.principal
            return principal
    return tokens.authenticate(authorization)


def holds(principal: Principal, role: Role) -> Principal:
    """``principal`` when it holds ``role`` or a higher one; HTTP 403 otherwise."""
    if not principal.can(role):
        raise ServiceError(
            403, f"{principal.name} is a {principal.role}; this needs the {role} role"
        )
    return principal


def require(role: Role) -> Callable[[Request], Awaitable[Principal]]:
    """A FastAPI dependency: the caller, who must hold ``role`` or a higher one (else 403)."""

    async def dependency(request: Request) -> Principal:
        return holds(caller(request), role)

    return dependency


def is_loopback(host: str) -> bool:
    """Whether a bind address or Host name only reaches this machine."""
    host = host.strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_bind(host: str, tokens: TokenStore, exposed: str = "read and delete every job") -> None:
    """Refuse to serve an open (tokenless) API on an address others can reach."""
    if not tokens and not is_loopback(host):
        raise ConfigError(
            f"refusing to listen on {host} without API tokens: anyone reaching the port could "
            f"{exposed}",
            hint="give --token-file (or PAGEREADER_TOKENS), or listen on 127.0.0.1",
        )
