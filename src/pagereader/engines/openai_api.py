"""``openai``: any OpenAI-compatible chat endpoint (vLLM, mlx-vlm), one engine per endpoint.

Each block is one chat request: the crop as a base64 PNG data URL and the task prompt of the
endpoint's style. The body carries the pixel bounds set by the decision layer (both
``min_pixels`` and ``max_pixels``, so dense pages get more visual tokens) and thinking off, in
the fields the engine's ``server`` reads (served_fields.py: vLLM's ``mm_processor_kwargs`` and
``chat_template_kwargs``, mlx-vlm's top-level fields). Reasoning that leaks anyway is
stripped. A crop above the request's ``max_pixels`` is shrunk here by the image processor's own
rule (pixels.py), so the server never decodes more than it will use (vLLM answers 500 to an
image past Pillow's bomb limit, whatever max_pixels says). Transient failures (connect errors,
429, 5xx) are retried with jittered backoff; a timeout is not (the page deadline and the
route's next engine handle a hung server); a circuit breaker per endpoint stops traffic to a
server that keeps failing, and a refusal that will repeat (see served_errors.py) opens it at
once. Errors carry the server's own message. :meth:`OpenAIEngine.preflight` sends one tiny
image before any page, so such a refusal is found at start-up. An answer cut at
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

from pagereader.config.options import OpenAIEngineOptions, RouterOptions
from pagereader.engines.base import BlockRequest
from pagereader.engines.breaker import CircuitBreaker
from pagereader.engines.prompts import max_tokens_for, page_prompt, routing_tag, task_prompt
from pagereader.engines.retry import Backoff, is_retryable_status, parse_retry_after
from pagereader.errors import EngineError, EngineRefusedError, EngineUnavailableError
from pagereader.pixels import fit_for_upload, image_tokens
from pagereader.render.otsl import is_otsl, otsl_to_table
from pagereader.served_errors import ServerError, status_error
from pagereader.served_fields import pixel_fields
from pagereader.text.tables import table_to_html, table_to_markdown
from pagereader.types import Block, Recognition

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


def upload_data_url(image: Image.Image, factor: int, min_pixels: int, max_pixels: int) -> str:
    """The data URL of the crop exactly as a request sends it (shrunk first when over its
    budget): what a server sees, and what a test's stand-in server is keyed on."""
    return image_data_url(fit_for_upload(image, factor, min_pixels, max_pixels))


def _encode(
    image: Image.Image, tagged: bool, factor: int, min_pixels: int, max_pixels: int
) -> tuple[str, str]:
    """The crop as sent (shrunk to the server's own resize when that is smaller) as a data URL
    and, when the request carries a routing tag, its digest."""
    image = fit_for_upload(image, factor, min_pixels, max_pixels)
    return image_data_url(image), crop_sha256(image) if tagged else ""


#: The preflight's image: small, blank, and within every model's pixel bounds once resized.
PREFLIGHT_SIZE = (64, 64)


def _page_texts(options: OpenAIEngineOptions) -> tuple[str, str | None]:
    """A whole-page request's user prompt and system prompt, from the engine's dialect."""
    page = page_prompt(options)
    return page.user, page.system


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
        secret = router.api_key if router else options.api_key
        self._api_key = secret.get_secret_value()
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
        system = None
        if request.task == "page" and self.options.dialect is not None:
            prompt, system = _page_texts(self.options)
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
            system = f"{tag}\n{system}" if system else tag
        if system:
            messages.append({"role": "system", "content": system})
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
            "extra_body": pixel_fields(self.options.server, request.min_pixels, request.max_pixels),
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

    def visual_tokens(self, width: int, height: int, min_pixels: int, max_pixels: int) -> int:
        """The visual tokens the served model spends on a crop of this size at these bounds."""
        return image_tokens(width, height, self.options.image_factor, min_pixels, max_pixels)

    def _where(self) -> str:
        return f"engine {self.name} ({self.base_url})"

    def _error(self, request: BlockRequest, message: str, **kind: Any) -> EngineError:
        return EngineError(
            f"{self._where()}: {message}", file=request.file, page=request.page, **kind
        )

    def _fallback_hint(self, hint: str) -> str:
        if self.options.fallback_on_refusal:
            return hint
        return (
            f"{hint}; or set [engines.{self.name}] fallback_on_refusal = true to accept the "
            "route's next engine"
        )

    def _status_failure(self, request: BlockRequest, failure: ServerError) -> EngineError:
        """The error of a non-retryable status; a refusal that will repeat opens the circuit."""
        message = f"{self._where()}: {failure.line()}"
        kind: dict[str, Any] = {"file": request.file, "page": request.page}
        kind |= {"status": failure.status, "cause": failure.cause}
        if failure.cause == "refused":
            self.breaker.trip(failure.line(), failure.hint)
            return EngineRefusedError(message, hint=self._fallback_hint(failure.hint), **kind)
        self.breaker.record_success()
        return EngineError(message, hint=failure.hint, **kind)

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
                why = self.breaker.reason or "repeated failures"
                raise EngineUnavailableError(
                    f"{self._where()}: circuit open after {why}; "
                    f"next probe in {self.breaker.retry_in():.1f} s",
                    file=request.file,
                    page=request.page,
                    hint=self._fallback_hint(
                        self.breaker.hint or "check that the server is up and serves the model"
                    ),
                    cause="unreachable",
                )
            retry_after: float | None = None
            try:
                response = await self._client().chat.completions.create(**body)
            except asyncio.CancelledError:
                self.breaker.release_probe()
                raise
            except openai.APITimeoutError as exc:
                self.breaker.record_failure("a timeout")
                raise self._error(
                    request, f"no answer within {self.options.timeout_s:g} s", cause="timeout"
                ) from exc
            except openai.APIConnectionError as exc:
                problem = f"cannot connect: {exc}"
                status, cause = None, "unreachable"
                hint = f"start the server at {self.base_url}, or fix [engines.{self.name}] base_url"
                self.breaker.record_failure(problem, hint)
            except openai.APIStatusError as exc:
                failure = status_error(exc, self.name, self.base_url)
                if not is_retryable_status(failure.status):
                    raise self._status_failure(request, failure) from exc
                problem = failure.line()
                status, cause, hint = failure.status, failure.cause, failure.hint
                self.breaker.record_failure(problem, hint)
                retry_after = parse_retry_after(exc.response.headers.get("retry-after"))
            else:
                self.breaker.record_success()
                return response
            if attempt + 1 < tries:
                delay = self.backoff.delay(attempt, retry_after)
                logger.debug("%s: %s; retry %d in %.2f s", self.name, problem, attempt + 1, delay)
                await asyncio.sleep(delay)
        raise EngineUnavailableError(
            f"{self._where()}: {problem} (after {tries} tries)",
            file=request.file,
            page=request.page,
            hint=self._fallback_hint(hint),
            cause=cause,  # type: ignore[arg-type]
            status=status,
        )

    async def recognize(self, request: BlockRequest) -> Recognition:
        start = time.perf_counter()
        url, digest = await asyncio.to_thread(
            _encode,
            request.image,
            self.router is not None,
            self.options.image_factor,
            request.min_pixels,
            request.max_pixels,
        )
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
            http_status=200,
        )

    async def preflight(self, min_pixels: int, max_pixels: int) -> EngineError | None:
        """One tiny image request shaped like every block's (pixel bounds, thinking off), sent
        before any page: a server that refuses them, is down, or does not serve the model is
        found now, and a refusal opens the circuit so no block waits on it; an open circuit
        lets it through as its probe, so an answer closes it. None when the server answered."""
        image = Image.new("RGB", PREFLIGHT_SIZE, "white")
        block = Block(kind="text", bbox=(0.0, 0.0, *map(float, PREFLIGHT_SIZE)), order=0)
        request = BlockRequest(
            file="",
            page=0,
            block=block,
            task="text",
            image=image,
            page_image=image,
            scale=1.0,
            page_class="scan",
            script="unknown",
            min_pixels=min(min_pixels, max_pixels),
            max_pixels=max_pixels,
        )
        body = self.request_body(request, image_data_url(image))
        body["max_tokens"] = 1
        self.breaker.probe_now()
        try:
            await self._send(request, body)
        except EngineError as exc:
            return exc
        return None

    async def aclose(self) -> None:
        clients = list(self._clients.values())
        self._clients.clear()
        for client in clients:
            await client.close()
