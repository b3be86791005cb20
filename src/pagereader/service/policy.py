"""The service's limits and security settings, in one model so the CLI, the app and the docs
name the same keys and defaults."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

MIB = 1024 * 1024


class ServiceLimits(BaseModel):
    """What one request or job may cost the server, and who may call it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_upload_bytes: int = Field(
        200 * MIB, ge=1, description="largest upload; checked while the body streams in"
    )
    max_pages: int = Field(
        1000, ge=1, description="most pages one job may have; a longer document fails at once"
    )
    max_field_bytes: int = Field(4096, ge=16, description="largest non-file form field")
    allowed_origins: tuple[str, ...] = Field(
        (), description="browser origins allowed to call the API (CORS); none by default"
    )
    shutdown_grace_s: float = Field(
        30.0,
        ge=0,
        description="on SIGTERM, how long running jobs may take to finish before "
        "they are stopped and queued again",
    )
    docs: bool = Field(False, description="serve /docs and /openapi.json (behind the tokens)")
