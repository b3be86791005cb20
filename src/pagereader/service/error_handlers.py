"""The document service's exception handlers: ServiceError, Starlette's HTTP errors (an unknown
route, a wrong method) and FastAPI's parameter validation, all answered in http/errors.py's
one shape."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from pagereader.http.errors import ServiceError, error_response, field_errors, invalid


def install_error_handlers(app: FastAPI) -> None:
    """Answer ServiceError, Starlette's HTTP errors (an unknown route, a wrong method) and
    FastAPI's parameter validation in the one shape."""

    @app.exception_handler(ServiceError)
    async def service_error(_: Request, exc: ServiceError) -> JSONResponse:
        return error_response(exc)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        return error_response(ServiceError(exc.status_code, str(exc.detail), headers=exc.headers))

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(invalid(field_errors(exc.errors()), "valid parameters"))
