"""Reading a JSON request body safely, for every JSON endpoint of ``serve``, ``serve-engine``
and the MCP server's HTTP transport.

Four refusals come before any JSON parser sees a byte: a body past the size limit (413, counted
while it streams in), a declared type other than JSON (415: a browser page may post
``text/plain`` or a form to any address without asking first, never ``application/json``),
nesting deeper than any request needs (400: the C decoder recurses once per bracket, so a
megabyte of ``[`` is a RecursionError, and every reader after it would recurse again), and a
number of more digits than any request needs (400: Python's ``int()`` refuses a literal of more
than 4300 digits with a ValueError from inside ``json.loads``, and takes quadratic time below
that). ``serve`` and ``serve-engine`` read bodies with :func:`read_json`; an app that parses its
bodies itself (the MCP SDK's) sits behind :class:`JsonBodyGuard`, which applies the same checks.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import numpy as np
from starlette.requests import ClientDisconnect, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pagereader.http.errors import ServiceError, error_response

MAX_JSON_DEPTH = 64
MAX_NUMBER_DIGITS = 100
"""The most digits in a row a number of a request body may have: a 64-bit integer has 20, a
double needs 17; 100 leaves room for any honest client and keeps ``int()`` cheap."""
_DIGITS_ONLY = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_CHUNK = 1 << 20


def is_json_type(content_type: str) -> bool:
    """Whether a Content-Type names JSON (``application/json``, ``application/*+json``); an
    absent one counts as JSON, as FastAPI reads it (a browser's cross-origin post always carries
    an Origin, which origin.py refuses)."""
    kind = content_type.split(";", 1)[0].strip().lower()
    return (
        not kind
        or kind == "application/json"
        or (kind.startswith("application/") and kind.endswith("+json"))
    )


def json_depth(data: bytes, limit: int) -> int:
    """The deepest bracket nesting of a JSON text, strings skipped; counting stops past
    ``limit``. Vectorised over chunks, so a 64 MiB body costs milliseconds, not a Python loop."""
    structure = _STRING.sub(b"", data)
    codes = np.frombuffer(structure, dtype=np.uint8)
    level, deepest = 0, 0
    for start in range(0, len(codes), _CHUNK):
        part = codes[start : start + _CHUNK]
        opens = (part == ord("[")) | (part == ord("{"))
        closes = (part == ord("]")) | (part == ord("}"))
        steps = opens.astype(np.int64) - closes
        levels = np.cumsum(steps) + level
        if len(levels):
            deepest = max(deepest, int(levels.max()))
            level = int(levels[-1])
        if deepest > limit:
            break
    return deepest


def _has_digit_run(data: bytes, length: int) -> bool:
    """Whether ``data`` holds ``length`` ASCII digits in a row (a translate and a substring
    search: a quarter of a gigabyte in half a second, where a regex takes seconds)."""
    return data.translate(_DIGITS_ONLY).find(b"0" * length) >= 0


def check_json(
    data: bytes, max_depth: int = MAX_JSON_DEPTH, max_digits: int = MAX_NUMBER_DIGITS
) -> None:
    """ServiceError 400 when the JSON text ``data`` nests past ``max_depth`` or holds a number
    of more than ``max_digits`` digits in a row; strings are text, not structure or numbers."""
    brackets = data.count(b"[") + data.count(b"{")
    if brackets > max_depth and json_depth(data, max_depth) > max_depth:
        raise ServiceError(
            400, f"the JSON body nests deeper than {max_depth} levels; no request needs that"
        )
    if _has_digit_run(data, max_digits + 1) and _has_digit_run(
        _STRING.sub(b"", data), max_digits + 1
    ):
        raise ServiceError(
            400,
            f"the JSON body holds a number of more than {max_digits} digits; "
            f"send numbers of at most {max_digits} digits",
        )


def parse_json(data: bytes, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``data`` as JSON; ServiceError 400 when it is not UTF-8 JSON or fails
    :func:`check_json`."""
    check_json(data, max_depth)
    try:
        return json.loads(data)
    except UnicodeDecodeError as exc:
        raise ServiceError(
            400, f"the body is not valid JSON: not UTF-8 at byte {exc.start}"
        ) from exc
    except json.JSONDecodeError as exc:
        raise ServiceError(400, f"the body is not valid JSON: {exc}") from exc


async def read_body(request: Request, max_bytes: int) -> bytes:
    """The request's body if it is declared JSON (415 if not) and within ``max_bytes`` (413
    as soon as it is not, before the rest is read)."""
    content_type = request.headers.get("content-type", "")
    if not is_json_type(content_type):
        raise ServiceError(
            415, f"send the body as application/json, not {content_type.split(';', 1)[0]!r}"
        )
    declared = request.headers.get("content-length", "")
    too_big = f"the request is larger than this server's limit of {max_bytes} bytes"
    if declared.isdigit() and int(declared) > max_bytes:
        raise ServiceError(413, too_big)
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > max_bytes:
            raise ServiceError(413, too_big)
    return bytes(data)


async def read_json(request: Request, max_bytes: int, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """The request's JSON body, checked as the module docstring says."""
    data = await read_body(request, max_bytes)
    # off the event loop: a body of tens of MiB takes a second to scan and parse
    return await asyncio.to_thread(parse_json, data, max_depth)


class JsonBodyGuard:
    """ASGI middleware in front of an app that parses JSON bodies itself: the body of a POST,
    PUT or PATCH is read here (:func:`read_body`), checked (:func:`check_json`) and handed on
    whole; a refusal is answered in the service's error shape and the app never sees it."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        try:
            data = await read_body(Request(scope, receive), self.max_bytes)
            await asyncio.to_thread(check_json, data)
        except ServiceError as exc:
            await error_response(exc)(scope, receive, send)
            return
        except ClientDisconnect:
            return  # no one is left to answer
        await self.app(scope, _replay(data, receive), send)


def _replay(data: bytes, receive: Receive) -> Receive:
    """A receive channel that gives ``data`` as the whole body, then what ``receive`` gives
    (the client's disconnect)."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": data, "more_body": False}

    return replayed
