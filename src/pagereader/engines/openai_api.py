"""``openai``: any OpenAI-compatible chat endpoint (vLLM), one engine per configured endpoint.

Each block is one chat request: the crop as a base64 PNG data URL and the task prompt of the
endpoint's style. vLLM reads two per-request extras from the body: ``mm_processor_kwargs``
(both ``min_pixels`` and ``max_pixels``, set by the decision layer, so dense pages get more
visual tokens) and ``chat_template_kwargs`` (thinking off). Reasoning that leaks anyway is
stripped. Transient failures (connect errors, 429, 5xx) are retried with jittered backoff; a
timeout is not (the page deadline and the route's next engine handle a hung server); a
circuit breaker per endpoint stops traffic to a server that keeps failing. An answer cut at
``max_tokens`` is returned with its ``finish_reason``: the verifier's truncation check judges it
and its remedy (retry with more pixels, fallback, escalate) applies, as for any other fault.

In router mode the request goes to a vLLM Semantic Router with model ``vllm-sr/auto``; the page
class, task and the crop's SHA-256 travel as body ``metadata`` and as a tag line in the system
prompt (with the pixel budget and the prompt's digest), so the router's response cache can only
answer a request from one with the same pixels, task, prompt and pixel budget.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import io
import logging
import re
import time
import weakref
from typing import Any

import openai
from openai import AsyncOpenAI
from PIL import Image

from pagereader.engines.base import BlockRequest
from pagereader.engines.breaker import CircuitBreaker
from pagereader.engines.prompts import max_tokens_for, routing_tag, task_prompt
from pagereader.engines.retry import Backoff, is_retryable_status, parse_retry_after
from pagereader.errors import EngineError, EngineUnavailableError
from pagereader.options import OpenAIEngineOptions, RouterOptions
from pagereader.render.otsl import is_otsl, otsl_to_table
from pagereader.tables import table_to_html, table_to_markdown
from pagereader.types import Recognition

logger = logging.getLogger(__name__)

_THINK_BLOCK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_THINK_OPEN = re.compile(r"<think>.*\Z", re.DOTALL | re.IGNORECASE)
_THINK_CLOSE = "</think>"


def strip_reasoning(text: str) -> str:
    """The answer without ``<think>...</think>``: closed blocks, an unclosed trailing one, and
    reasoning before a lone ``</think>`` (templates that open the block in the prompt)."""
    text = _THINK_BLOCK.sub("", text)
    lowered = text.lower()
    if _THINK_CLOSE in lowered:
        text = text[lowered.rindex(_THINK_CLOSE) + len(_THINK_CLOSE) :]
    text = _THINK_OPEN.sub("", text)
    return text.strip()


def image_data_url(image: Image.Image) -> str:
    """A lossless PNG data URL of the crop (the server sees exactly the pixels we have)."""
    if image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def crop_sha256(image: Image.Image) -> str:
    """SHA-256 of the crop's pixels (mode, size, raw bytes) as sent: identical pixels give the
    same digest whatever the PNG encoder does, any changed pixel a different one."""
    if image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    digest = hashlib.sha256(f"{image.mode} {image.width}x{image.height}\n".encode("ascii"))
    digest.update(image.tobytes())
    return digest.hexdigest()


def _encode(image: Image.Image, tagged: bool) -> tuple[str, str]:
    """The crop's data URL and, when the request carries a routing tag, its digest."""
    return image_data_url(image), crop_sha256(image) if tagged else ""


class OpenAIEngine:
    """One OpenAI-compatible endpoint (or the router in front of several)."""

    embedded = False
    pixel_blind = False

    def __init__(
        self,
        options: OpenAIEngineOptions,
        name: str = "openai",
        router: RouterOptions | None = None,
        breaker: CircuitBreaker | None = None,
        backoff: Backoff | None = None,
    ) -> None:
        self.name = name
        self.options = options
        self.max_concurrency = options.max_concurrency
        self.router = router
        self.base_url = router.base_url if router else options.base_url
        self.model = router.model if router else options.model
        self._api_key = router.api_key if router else options.api_key
        self.breaker = breaker or CircuitBreaker()
        self.backoff = backoff or Backoff()
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncOpenAI] = (
            weakref.WeakKeyDictionary()
        )

    def _client(self) -> AsyncOpenAI:
        """One client per event loop: httpx connection pools belong to the loop that made them.

        Keyed by the loop itself, held weakly: a finished loop's client goes with it and is
        never handed to a new loop that happens to reuse its address."""
        key = asyncio.get_running_loop()
        client = self._clients.get(key)
        if client is None:
            client = AsyncOpenAI(
                base_url=self.base_url,
                api_key=self._api_key,
                timeout=self.options.timeout_s,
                max_retries=0,
            )
            self._clients[key] = client
        return client

    def request_body(
        self, request: BlockRequest, image_url: str, crop_digest: str = ""
    ) -> dict[str, Any]:
        """The keyword arguments of ``chat.completions.create`` for one block (in router mode
        ``crop_digest`` is the crop's :func:`crop_sha256`, computed here when not given)."""
        prompt = task_prompt(self.options.prompt_style, request.task, self.options.prompts)
        messages: list[dict[str, Any]] = []
        if self.router is not None:
            crop_digest = crop_digest or crop_sha256(request.image)
            tag = routing_tag(
                request.page_class,
                request.task,
                crop_digest,
                request.min_pixels,
                request.max_pixels,
                prompt,
            )
            messages.append({"role": "system", "content": tag})
        messages.append(
            {
                "role": "user",
                "content": [
                    {"type": "image_url", "image_url": {"url": image_url}},
                    {"type": "text", "text": prompt},
                ],
            }
        )
        body: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": 0.0,
            "max_tokens": max_tokens_for(request.task, self.options.max_tokens),
            "extra_body": {
                "mm_processor_kwargs": {
                    "min_pixels": request.min_pixels,
                    "max_pixels": request.max_pixels,
                },
                "chat_template_kwargs": {"enable_thinking": False},
            },
        }
        if self.router is not None:
            body["metadata"] = {
                "page_class": request.page_class,
                "task": request.task,
                "block_kind": request.block.kind,
                "crop_sha256": crop_digest,
                **request.metadata,
            }
        return body

    def _error(self, request: BlockRequest, message: str) -> EngineError:
        return EngineError(
            f"{self.name} ({self.base_url}): {message}", file=request.file, page=request.page
        )

    async def _send(self, request: BlockRequest, body: dict[str, Any]) -> Any:
        """One request with retries; the breaker sees every try.

        The retry loop is written here rather than in an httpx retry transport because the
        circuit breaker must count every failed try (a transport would hide them behind one
        call), an open breaker must stop the retries of a request already under way, and the
        wait honours ``Retry-After`` and cancellation by the page deadline. The openai client's
        own retries are off (``max_retries=0``) so that tries are counted once."""
        tries = self.options.retries + 1
        problem = ""
        for attempt in range(tries):
            if not self.breaker.allow():
                raise EngineUnavailableError(
                    f"{self.name} ({self.base_url}): circuit open after repeated failures; "
                    f"next probe in {self.breaker.retry_in():.1f} s",
                    file=request.file,
                    page=request.page,
                    hint="check that the server is up, or let the route's fallback answer",
                )
            retry_after: float | None = None
            try:
                response = await self._client().chat.completions.create(**body)
            except asyncio.CancelledError:
                self.breaker.release_probe()
                raise
            except openai.APITimeoutError as exc:
                self.breaker.record_failure()
                raise self._error(
                    request, f"no answer within {self.options.timeout_s:g} s"
                ) from exc
            except openai.APIConnectionError as exc:
                self.breaker.record_failure()
                problem = f"cannot connect: {exc}"
            except openai.APIStatusError as exc:
                status = exc.status_code
                if not is_retryable_status(status):
                    self.breaker.record_success()
                    raise self._error(request, f"HTTP {status}: {exc.message}") from exc
                self.breaker.record_failure()
                problem = f"HTTP {status}: {exc.message}"
                retry_after = parse_retry_after(exc.response.headers.get("retry-after"))
            else:
                self.breaker.record_success()
                return response
            if attempt + 1 < tries:
                delay = self.backoff.delay(attempt, retry_after)
                logger.debug("%s: %s; retry %d in %.2f s", self.name, problem, attempt + 1, delay)
                await asyncio.sleep(delay)
        raise self._error(request, f"{problem} (after {tries} tries)")

    async def recognize(self, request: BlockRequest) -> Recognition:
        start = time.perf_counter()
        url, digest = await asyncio.to_thread(_encode, request.image, self.router is not None)
        response = await self._send(request, self.request_body(request, url, digest))
        if not response.choices:
            raise self._error(request, "the answer has no choices")
        choice = response.choices[0]
        raw = choice.message.content or ""
        text = strip_reasoning(raw)
        usage = response.usage
        finish = choice.finish_reason
        html = text if request.task == "table" and "<table" in text.lower() else None
        if request.task == "table" and is_otsl(text):
            table = otsl_to_table(text)
            html, text = table_to_html(table), table_to_markdown(table)
        return Recognition(
            text=text,
            html=html,
            engine=self.name,
            finish_reason=finish,
            prompt_tokens=usage.prompt_tokens if usage else None,
            completion_tokens=usage.completion_tokens if usage else None,
            latency_s=time.perf_counter() - start,
            detail=f"{response.model or self.model} via {self.base_url}"
            + ("; reasoning stripped" if text != raw.strip() else ""),
        )

    async def aclose(self) -> None:
        clients = list(self._clients.values())
        self._clients.clear()
        for client in clients:
            await client.close()
