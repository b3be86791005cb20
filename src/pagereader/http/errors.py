"""The document service's one error model: every refusal is a ``ServiceError`` and every error
answer has one shape, ``{"error": "one line", "code": "not_found", "status": 404}``, with
``"fields"`` (each field at fault and why) on a 422.

Routes raise; one handler per exception type writes the answer (a refused upload, a review of a
missing block, an unknown token and FastAPI's own 404 or 422 alike: service/error_handlers.py),
so a client reads errors one way. Nothing here needs FastAPI, so the MCP server's token guard
answers in the same shape. ``serve-engine`` speaks the OpenAI API and keeps that API's error
objects.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from starlette.responses import JSONResponse

from pagereader.errors import PagereaderError

CODES: dict[int, str] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid_body",
    429: "too_many_requests",
    500: "internal",
    503: "unavailable",
}


class ServiceError(PagereaderError):
    """A request the service refuses: the HTTP status, a stable code, one line saying what to
    do, and for a body of the wrong shape the fields at fault."""

    stage = "service"

    def __init__(
        self,
        status: int,
        message: str,
        *,
        code: str | None = None,
        fields: Sequence[Mapping[str, str]] = (),
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code or CODES.get(status, "error")
        self.fields = [dict(f) for f in fields]
        self.headers = dict(headers or {})

    def body(self) -> dict[str, Any]:
        """The answer's JSON."""
        out: dict[str, Any] = {"error": self.message, "code": self.code, "status": self.status}
        if self.fields:
            out["fields"] = self.fields
        return out


def error_body(status: int, message: str) -> dict[str, Any]:
    """The error shape for code that answers without raising (the ASGI middleware)."""
    return ServiceError(status, message).body()


def error_response(error: ServiceError) -> JSONResponse:
    """The answer to a refusal, in the one shape (Starlette's, so that any ASGI app of
    pagereader can send it)."""
    return JSONResponse(error.body(), status_code=error.status, headers=error.headers or None)


def field_errors(errors: Sequence[Any]) -> list[dict[str, str]]:
    """Each field at fault and what is wrong with it, in words (pydantic's error list)."""
    return [
        {
            "field": ".".join(str(part) for part in error["loc"] if part != "body") or "(body)",
            "message": str(error["msg"]),
        }
        for error in errors
    ]


def invalid(fields: list[dict[str, str]], shape: str) -> ServiceError:
    """The 422 for a body or parameter of the wrong shape: one line, and the fields."""
    summary = "; ".join(f"{f['field']}: {f['message']}" for f in fields)
    return ServiceError(422, f"send {shape} ({summary})", fields=fields)
