"""The roles a route needs, as FastAPI dependencies: annotate a parameter with one and the
request is refused (401/403, or the login page in a browser) unless its caller holds the role."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from pagereader.http.auth import Principal, require

Reader = Annotated[Principal, Depends(require("reader"))]
Reviewer = Annotated[Principal, Depends(require("reviewer"))]
Admin = Annotated[Principal, Depends(require("admin"))]
