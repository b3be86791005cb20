"""The service's request bodies as pydantic models: a body of the wrong shape or types is a 422
naming each field at fault, never read loosely (a page of 1.7 taken as 1) nor a 500."""

from __future__ import annotations

from typing import Any, Literal

from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError


class ReviewBody(BaseModel):
    """``POST /v1/jobs/{id}/reviews``: a reviewer's decision on one block."""

    model_config = ConfigDict(extra="forbid")

    page: StrictInt = Field(ge=1)
    block: StrictInt = Field(ge=0)
    action: Literal["approve", "edit", "unreadable"]
    text: StrictStr | None = None


def field_errors(exc: ValidationError) -> list[dict[str, str]]:
    """Each field at fault and what is wrong with it, in words."""
    return [
        {
            "field": ".".join(str(part) for part in error["loc"]) or "(body)",
            "message": str(error["msg"]),
        }
        for error in exc.errors(include_url=False, include_input=False)
    ]


def invalid_body(exc: ValidationError, shape: str) -> JSONResponse:
    """The 422 answer: one line, and the fields."""
    fields = field_errors(exc)
    summary = "; ".join(f"{f['field']}: {f['message']}" for f in fields)
    body: dict[str, Any] = {"error": f"send {shape} ({summary})", "fields": fields}
    return JSONResponse(body, status_code=422)
