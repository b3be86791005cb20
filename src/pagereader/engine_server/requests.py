"""Checking a chat-completion request the way vLLM does: every malformed field is a 400 with an
OpenAI-style error object naming the field, never a 500.

The image is checked from its header against the pixel budget before a single pixel is decoded,
so a small file declaring 20000x20000 pixels costs nothing.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Annotated, Any

from PIL import Image
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr, ValidationError

from pagereader.config.defaults import DEFAULT_MAX_PIXELS, DEFAULT_MIN_PIXELS
from pagereader.errors import ImageTooLargeError, PagereaderError
from pagereader.sources import check_image_pixels, open_bounded_image
from pagereader.sources.limits import open_image_header

MAX_MODEL_LEN = 32_768
INT32_MAX = 2**31 - 1
INT64 = 2**63
_CLASS_NAME = re.compile(r" or instance of \w+")
_REPR = re.compile(r"<[^<>]*? (?:object )?at 0x[0-9a-fA-F]+>")

Tokens = Annotated[int, Field(strict=True, ge=1, le=MAX_MODEL_LEN)]


def _finite(ge: float | None = None, le: float | None = None, gt: float | None = None) -> Any:
    """A finite JSON number (NaN and Infinity refused) within the bounds given."""
    return Field(strict=True, allow_inf_nan=False, ge=ge, le=le, gt=gt)


class PixelBounds(BaseModel):
    """``mm_processor_kwargs``: the pixel bounds of smart_resize; other keys are ignored, as
    vLLM ignores them."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    min_pixels: Annotated[int, Field(strict=True, ge=1, le=INT32_MAX)] = DEFAULT_MIN_PIXELS
    max_pixels: Annotated[int, Field(strict=True, ge=1, le=INT32_MAX)] = DEFAULT_MAX_PIXELS


class StreamOptions(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    include_usage: StrictBool | None = None


class SamplingFields(BaseModel):
    """Every scalar field of a chat request, with vLLM's ranges: a value out of range is a 400
    naming the field, never a NaN or a 1e30 reaching the code that uses it. Fields the server
    does not use are checked all the same, since a client that sends them expects them to be
    valid somewhere."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    model: StrictStr | None = None
    max_tokens: Tokens | None = None
    max_completion_tokens: Tokens | None = None
    min_tokens: Annotated[int, Field(strict=True, ge=0, le=MAX_MODEL_LEN)] | None = None
    n: Annotated[int, Field(strict=True, ge=1, le=128)] | None = None
    temperature: Annotated[float, _finite(ge=0, le=2)] | None = None
    top_p: Annotated[float, _finite(gt=0, le=1)] | None = None
    top_k: Annotated[int, Field(strict=True, ge=-1, le=INT32_MAX)] | None = None
    min_p: Annotated[float, _finite(ge=0, le=1)] | None = None
    presence_penalty: Annotated[float, _finite(ge=-2, le=2)] | None = None
    frequency_penalty: Annotated[float, _finite(ge=-2, le=2)] | None = None
    repetition_penalty: Annotated[float, _finite(gt=0, le=2)] | None = None
    length_penalty: Annotated[float, _finite()] | None = None
    seed: Annotated[int, Field(strict=True, ge=-INT64, lt=INT64)] | None = None
    logprobs: StrictBool | None = None
    top_logprobs: Annotated[int, Field(strict=True, ge=0, le=20)] | None = None
    logit_bias: dict[str, Annotated[float, _finite(ge=-100, le=100)]] | None = None
    stream: StrictBool | None = None
    stream_options: StreamOptions | None = None
    mm_processor_kwargs: PixelBounds | None = None


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


def _sampling(body: dict[str, Any]) -> SamplingFields:
    """The scalar fields, checked; ApiError 400 naming the first bad one."""
    try:
        return SamplingFields.model_validate(body)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        param = ".".join(str(part) for part in error["loc"])
        value = error.get("input")
        shown = f", got {value!r}" if isinstance(value, int | float | str) else ""
        message = _CLASS_NAME.sub("", error["msg"])
        raise ApiError(400, f"{param}: {message}{shown}"[:300], param) from exc


def clean_message(message: str) -> str:
    """``message`` without Python object reprs (``<_io.BytesIO object at 0x7f...>``): they say
    nothing to a client and leak the server's internals."""
    return _REPR.sub("the data", message)


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
    fields = _sampling(body)
    kwargs = fields.mm_processor_kwargs or PixelBounds()
    if kwargs.max_pixels < kwargs.min_pixels:
        raise ApiError(
            400,
            "mm_processor_kwargs: need 0 < min_pixels <= max_pixels, "
            f"got {kwargs.min_pixels} and {kwargs.max_pixels}",
            "mm_processor_kwargs",
        )
    if fields.n not in (None, 1):
        raise ApiError(400, "only n=1 is supported", "n")
    limit = fields.max_tokens if fields.max_tokens is not None else fields.max_completion_tokens
    if fields.min_tokens is not None and limit is not None and fields.min_tokens > limit:
        raise ApiError(400, f"min_tokens must be at most max_tokens ({limit})", "min_tokens")
    options = fields.stream_options or StreamOptions()
    return ChatRequest(
        model=fields.model,
        image_url=url,
        prompt=" ".join(texts).strip(),
        min_pixels=kwargs.min_pixels,
        max_pixels=kwargs.max_pixels,
        max_tokens=limit,
        stream=bool(fields.stream),
        include_usage=bool(options.include_usage),
    )


def image_bytes(url: str) -> bytes:
    """The file inside a base64 data URL; this server fetches nothing."""
    if not url.startswith("data:") or ";base64," not in url:
        raise ApiError(
            400, "image_url must be a base64 data URL (this server fetches nothing)", "image_url"
        )
    try:
        return base64.b64decode(url.split(";base64,", 1)[1], validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ApiError(400, f"cannot decode the image: {exc}", "image_url") from exc


def _refusal(exc: PagereaderError) -> ApiError:
    if isinstance(exc, ImageTooLargeError):
        return ApiError(
            400,
            f"{clean_message(exc.message)}; this server's budget is render.max_image_pixels: "
            "send a smaller image",
            "image_url",
        )
    return ApiError(400, f"cannot decode the image: {clean_message(exc.message)}", "image_url")


def image_size(data: bytes, max_pixels: int) -> tuple[int, int]:
    """(width, height) from the header alone, refused when it declares more than ``max_pixels``
    pixels (the configured render.max_image_pixels); no pixel is decoded."""
    try:
        with open_image_header(data, max_pixels, file="image_url") as image:
            check_image_pixels(image, max_pixels, file="image_url")
            return image.size
    except PagereaderError as exc:
        raise _refusal(exc) from exc


def open_image(data: bytes, max_pixels: int) -> Image.Image:
    """The decoded image, refused from its header past ``max_pixels`` like image_size."""
    try:
        return open_bounded_image(data, max_pixels, file="image_url")
    except PagereaderError as exc:
        raise _refusal(exc) from exc


def decode_image(url: str, max_pixels: int) -> Image.Image:
    """The image of a base64 data URL, refused from its header when it declares more than
    ``max_pixels`` pixels."""
    return open_image(image_bytes(url), max_pixels)
