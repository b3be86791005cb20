"""Reading a JSON request body safely, for every JSON endpoint of ``serve`` and ``serve-engine``.

Three refusals come before ``json.loads`` sees a byte: a body past the size limit (413, counted
while it streams in), a declared type other than JSON (415: a browser page may post
``text/plain`` or a form to any address without asking first, never ``application/json``), and
nesting deeper than any request needs (400: the C decoder recurses once per bracket, so a
megabyte of ``[`` is a RecursionError, and every reader after it would recurse again).
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import numpy as np
from starlette.requests import Request

from pagereader.http.errors import ServiceError

MAX_JSON_DEPTH = 64
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


def parse_json(data: bytes, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``data`` as JSON; ServiceError 400 when it is not UTF-8 JSON or nests past ``max_depth``."""
    brackets = data.count(b"[") + data.count(b"{")
    if brackets > max_depth and json_depth(data, max_depth) > max_depth:
        raise ServiceError(
            400, f"the JSON body nests deeper than {max_depth} levels; no request needs that"
        )
    try:
        return json.loads(data)
    except UnicodeDecodeError as exc:
        raise ServiceError(
            400, f"the body is not valid JSON: not UTF-8 at byte {exc.start}"
        ) from exc
    except json.JSONDecodeError as exc:
        raise ServiceError(400, f"the body is not valid JSON: {exc}") from exc


async def read_json(request: Request, max_bytes: int, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """The request's JSON body, checked as the module docstring says."""
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
    # off the event loop: a body of tens of MiB takes a second to scan and parse
    return await asyncio.to_thread(parse_json, bytes(data), max_depth)
