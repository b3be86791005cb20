"""What a served endpoint's failure means, in the server's own words, and what to do about it.

vLLM answers a refused request with an error object, ``{"error": {"message", "type", "param",
"code"}}``; other OpenAI-compatible servers send ``{"detail": ...}`` or a bare ``message``.
The message is shown as the server wrote it (with the parameter it names), never as the
client library's repr of the whole body. The failure is then sorted: a refusal that will repeat
for every request (per-request ``mm_processor_kwargs`` disabled, an unknown model, a bad key;
mlx-vlm answers a model it does not serve with 400 "Failed to load model", having tried to load
it)
is ``refused`` and opens the engine's circuit at once; a refusal of this request only (a bad
parameter, a body too large) is ``rejected``; 5xx is ``server``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pagereader.types import AttemptCause

#: vLLM's 400 when per-request ``mm_processor_kwargs`` arrive at a server started without
#: ``--trust-request-mm-kwargs`` ("Per-request mm_processor_kwargs are disabled by default").
_MM_KWARGS_REFUSED = ("mm_processor_kwargs", "trust-request-mm-kwargs", "trust_request_mm_kwargs")
#: mlx_vlm.server's 400 for a request naming a model other than its ``--model``: it tries to
#: load that one (from the Hugging Face hub unless offline) and fails.
_MODEL_NOT_LOADED = "failed to load model"


@dataclass(frozen=True)
class ServerError:
    """One error answer: its status, the server's message (with its type and parameter when
    the server named them), what kind of failure it is, and what to do."""

    status: int
    message: str
    cause: AttemptCause
    hint: str

    def line(self) -> str:
        return f"HTTP {self.status}: {self.message}"


def error_message(body: Any, fallback: str = "") -> str:
    """The message of an error body as the server wrote it: ``Type (param p): message``."""
    error = body.get("error", body) if isinstance(body, dict) else body
    if isinstance(error, dict):
        message = error.get("message") or error.get("detail")
        kind, param = error.get("type"), error.get("param")
        if message is not None:
            text = str(message) if not isinstance(message, list | dict) else repr(message)
            prefix = str(kind) if isinstance(kind, str) and kind else ""
            if isinstance(param, str) and param and f"parameter={param}" not in text:
                prefix += f" (param {param})" if prefix else f"param {param}"
            return f"{prefix}: {text}" if prefix else text
    if isinstance(error, str) and error:
        return error
    return fallback or "no error message"


def classify(status: int, message: str, engine: str, base_url: str) -> ServerError:
    """The kind of failure an error status is, with the hint that names what to do."""
    lowered = message.lower()
    section = f"[engines.{engine}]"
    if status == 400 and any(key in lowered for key in _MM_KWARGS_REFUSED):
        return ServerError(
            status,
            message,
            "refused",
            "restart vLLM with --trust-request-mm-kwargs (pagereader sends each block's "
            "min_pixels/max_pixels in mm_processor_kwargs)",
        )
    if status == 404 or (status == 400 and lowered.startswith(_MODEL_NOT_LOADED)):
        return ServerError(
            status,
            message,
            "refused",
            f"set {section} model to a name the server at {base_url} serves (GET /v1/models)",
        )
    if status in (401, 403):
        return ServerError(
            status, message, "refused", f"set {section} api_key to a key the server accepts"
        )
    if status == 413:
        return ServerError(
            status,
            message,
            "rejected",
            "the request body is over the server's limit: raise the limit, or lower max_pixels",
        )
    if status >= 500:
        return ServerError(
            status, message, "server", f"the server at {base_url} failed: see its log"
        )
    return ServerError(status, message, "rejected", "the server refused this request's parameters")


def status_error(exc: Any, engine: str, base_url: str) -> ServerError:
    """An ``openai.APIStatusError`` read: the body's error object, else the response text."""
    body = getattr(exc, "body", None)
    response = getattr(exc, "response", None)
    text = ""
    if response is not None:
        try:
            text = response.text
        except Exception:  # a streamed body that cannot be read again
            text = ""
    if body is None and text:
        body = text
    message = error_message(body, text or str(getattr(exc, "message", "")))
    return classify(int(exc.status_code), " ".join(message.split())[:600], engine, base_url)
