"""Checking a chat-completion request the way vLLM does: every malformed field is a 400 with an
OpenAI-style error object naming the field, never a 500.

The image is checked from its header against the pixel budget before a single pixel is decoded,
so a small file declaring 20000x20000 pixels costs nothing.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any

from PIL import Image

from pagereader.errors import ImageTooLargeError, PagereaderError
from pagereader.sources import open_bounded_image

DEFAULT_MIN_PIXELS = 112_896
DEFAULT_MAX_PIXELS = 1_003_520


class ApiError(Exception):
    """A request the server refuses, answered as an OpenAI-style error body."""

    def __init__(self, status: int, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.param = param

    def body(self) -> dict[str, Any]:
        kind = {401: "AuthenticationError"}.get(
            self.status, "BadRequestError" if self.status < 500 else "InternalServerError"
        )
        return {
            "error": {
                "message": self.message,
                "type": kind,
                "param": self.param,
                "code": self.status,
            }
        }


@dataclass
class ChatRequest:
    """The parts of a request the server uses, all checked."""

    model: str | None
    image_url: str
    prompt: str
    min_pixels: int
    max_pixels: int
    max_tokens: int | None
    stream: bool
    include_usage: bool


def _int(value: Any, param: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, f"{param} must be an integer, got {value!r}", param)
    if value < minimum:
        raise ApiError(400, f"{param} must be at least {minimum}, got {value}", param)
    return value


def _optional_int(body: dict[str, Any], key: str, minimum: int) -> int | None:
    value = body.get(key)
    return None if value is None else _int(value, key, minimum)


def _bool(body: dict[str, Any], key: str) -> bool:
    value = body.get(key)
    if value is not None and not isinstance(value, bool):
        raise ApiError(400, f"{key} must be true or false, got {value!r}", key)
    return bool(value)


def _object(value: Any, param: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ApiError(400, f"{param} must be an object", param)
    return value


def _last_user_parts(messages: Any) -> tuple[str, list[dict[str, Any]]]:
    """The path and the content parts of the last user message."""
    if not isinstance(messages, list) or not messages:
        raise ApiError(400, "messages must be a non-empty list", "messages")
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            raise ApiError(400, "each message must be an object with a role", f"messages[{index}]")
    users = [i for i, m in enumerate(messages) if m["role"] == "user"]
    if not users:
        raise ApiError(400, "no user message", "messages")
    where = f"messages[{users[-1]}].content"
    content = messages[users[-1]].get("content")
    if isinstance(content, str):
        return where, [{"type": "text", "text": content}]
    if not isinstance(content, list):
        raise ApiError(400, f"{where} must be a string or a list of parts", where)
    for index, part in enumerate(content):
        if not isinstance(part, dict) or not isinstance(part.get("type"), str):
            raise ApiError(
                400, "each content part must be an object with a type", f"{where}[{index}]"
            )
    return where, content


def parse_request(body: Any) -> ChatRequest:
    """Check a chat-completion body; raise ApiError (400) naming the first bad field."""
    if not isinstance(body, dict):
        raise ApiError(400, "the request body must be a JSON object")
    where, parts = _last_user_parts(body.get("messages"))
    url: str | None = None
    texts: list[str] = []
    for index, part in enumerate(parts):
        param = f"{where}[{index}]"
        if part["type"] == "image_url":
            image_url = part.get("image_url")
            if not isinstance(image_url, dict) or not isinstance(image_url.get("url"), str):
                raise ApiError(
                    400, "image_url must be an object with a string url", f"{param}.image_url"
                )
            url = image_url["url"]
        elif part["type"] == "text":
            if not isinstance(part.get("text"), str):
                raise ApiError(400, "a text part needs a string text", f"{param}.text")
            texts.append(part["text"])
        else:
            raise ApiError(400, f"unsupported content part type {part['type']!r}", param)
    if url is None:
        raise ApiError(400, "the user message has no image_url part", where)
    kwargs = _object(body.get("mm_processor_kwargs"), "mm_processor_kwargs")
    low = _int(kwargs.get("min_pixels", DEFAULT_MIN_PIXELS), "mm_processor_kwargs.min_pixels", 1)
    high = _int(kwargs.get("max_pixels", DEFAULT_MAX_PIXELS), "mm_processor_kwargs.max_pixels", 1)
    if high < low:
        raise ApiError(
            400,
            f"mm_processor_kwargs: need 0 < min_pixels <= max_pixels, got {low} and {high}",
            "mm_processor_kwargs",
        )
    model = body.get("model")
    if model is not None and not isinstance(model, str):
        raise ApiError(400, "model must be a string", "model")
    limit = _optional_int(body, "max_tokens", 1)
    limit = limit if limit is not None else _optional_int(body, "max_completion_tokens", 1)
    if body.get("n") not in (None, 1):
        raise ApiError(400, "only n=1 is supported", "n")
    temperature = body.get("temperature")
    if temperature is not None and (
        isinstance(temperature, bool) or not isinstance(temperature, int | float) or temperature < 0
    ):
        raise ApiError(
            400, f"temperature must be a number >= 0, got {temperature!r}", "temperature"
        )
    options = _object(body.get("stream_options"), "stream_options")
    return ChatRequest(
        model=model,
        image_url=url,
        prompt=" ".join(texts).strip(),
        min_pixels=low,
        max_pixels=high,
        max_tokens=limit,
        stream=_bool(body, "stream"),
        include_usage=_bool(options, "include_usage"),
    )


def decode_image(url: str, max_pixels: int) -> Image.Image:
    """The image of a base64 data URL, refused from its header when it declares more than
    ``max_pixels`` pixels (the configured render.max_image_pixels)."""
    if not url.startswith("data:") or ";base64," not in url:
        raise ApiError(
            400, "image_url must be a base64 data URL (this server fetches nothing)", "image_url"
        )
    try:
        data = base64.b64decode(url.split(";base64,", 1)[1], validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ApiError(400, f"cannot decode the image: {exc}", "image_url") from exc
    try:
        return open_bounded_image(data, max_pixels, file="image_url")
    except ImageTooLargeError as exc:
        raise ApiError(
            400,
            f"{exc.message}; this server's budget is render.max_image_pixels: send a smaller image",
            "image_url",
        ) from exc
    except PagereaderError as exc:
        raise ApiError(400, f"cannot decode the image: {exc.message}", "image_url") from exc
