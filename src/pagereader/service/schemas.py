"""The service's request bodies as pydantic models: a body of the wrong shape or types is a 422
naming each field at fault, never read loosely (a page of 1.7 taken as 1) nor a 500."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from pagereader.http.errors import field_errors, invalid


class ReviewBody(BaseModel):
    """``POST /v1/jobs/{id}/reviews``: a reviewer's decision on one block."""

    model_config = ConfigDict(extra="forbid")

    page: StrictInt = Field(ge=1)
    block: StrictInt = Field(ge=0)
    action: Literal["approve", "edit", "unreadable"]
    text: StrictStr | None = None


def review_body(body: Any) -> ReviewBody:
    """The decision in a review request; ServiceError 422 naming each field at fault."""
    try:
        return ReviewBody.model_validate(body)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_input=False)
        raise invalid(field_errors(errors), 'JSON {"page", "block", "action", "text"?}') from exc
