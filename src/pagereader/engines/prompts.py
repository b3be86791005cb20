"""Prompt styles for VLM endpoints: what to ask a model for each task, and the routing tag.

``paddleocr-vl`` models are trained on four fixed task prompts and answer nothing else well;
``qwen-vl`` models follow instructions, so their prompts carry the reading policies that keep
legal and business documents faithful (article numbers kept, bleed-through ignored, unreadable
text marked ``[unclear]`` instead of guessed). A config may override any prompt by task name.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import get_args

from pagereader.config.options import OpenAIEngineOptions
from pagereader.engines.dialects import PROMPTS, DialectPrompt
from pagereader.errors import ConfigError
from pagereader.types import Task

# the routing tag's format: part of the prompt-set digest, so a new format starts a new cache
ROUTING_TAG_VERSION = "pagereader-tag-2"

PADDLE_TASK_PROMPTS: dict[str, str] = {
    "text": "OCR:",
    "table": "Table Recognition:",
    "formula": "Formula Recognition:",
    "chart": "Chart Recognition:",
    "figure": "Chart Recognition:",
    "page": "OCR:",
    "context": "OCR:",
}

_QWEN_POLICY = (
    "Copy the text exactly as printed, in its original language and script; do not translate, "
    "summarise or correct it. Keep article, section and list numbers and the line structure. "
    "Ignore text that shows through from the back of the page. If a word cannot be read, write "
    "[unclear] instead of guessing. Answer with the text only."
)

PAGE_READING_POLICY = (
    "Reading policy: copy the text exactly as printed, in its original language and script; "
    "do not translate, summarise or correct it. Keep article, section and list numbers as "
    "printed (Article 12, 第十二條, 제12조) with the structure they open. Ignore text that "
    "shows through from the back of the page. Where a word cannot be read, write [unclear] "
    "instead of guessing."
)
"""The reading policies a whole-page request to a Qwen model carries in its system prompt
(the instruction-following dialects only: the other models answer one trained prompt)."""

_POLICY_DIALECTS = frozenset({"qwenvl-html", "qwen-spotting"})

QWEN_TASK_PROMPTS: dict[str, str] = {
    "text": f"Read all text in this image. {_QWEN_POLICY}",
    "table": (
        "Convert this table to HTML (<table>, <tr>, <td> with rowspan and colspan where cells "
        f"are merged). {_QWEN_POLICY} Answer with the HTML only."
    ),
    "formula": "Write the formula in this image as LaTeX. Answer with the LaTeX only.",
    "chart": (
        "Describe this chart: its type, title, axes and the values it shows, as a Markdown "
        "table of the data followed by one sentence on the trend."
    ),
    "figure": (
        "Describe this figure in two or three sentences for a reader who cannot see it: what "
        "it shows and any text or numbers in it. Mark unreadable text as [unclear]."
    ),
    "page": "qwenvl html",
    "context": (
        'This is one page of a document. Return JSON with two keys: "title" (the page\'s '
        'title, or the main topic in a few words) and "summary" (at most two sentences). '
        "Use the page's language."
    ),
}

PROMPT_STYLES: dict[str, dict[str, str]] = {
    "paddleocr-vl": PADDLE_TASK_PROMPTS,
    "qwen-vl": QWEN_TASK_PROMPTS,
}

TASK_OF_PADDLE_PROMPT: dict[str, str] = {
    "OCR:": "text",
    "Table Recognition:": "table",
    "Formula Recognition:": "formula",
    "Chart Recognition:": "chart",
}

DEFAULT_MAX_TOKENS: dict[str, int] = {
    "text": 2048,
    "table": 4096,
    "formula": 1024,
    "chart": 2048,
    "figure": 1024,
    "page": 8192,
    "context": 512,
}


def task_prompt(style: str, task: Task, overrides: Mapping[Task, str] | None = None) -> str:
    """The user prompt for a task: the config's override, else the style's own."""
    if overrides and task in overrides:
        return overrides[task]
    prompts = PROMPT_STYLES[style]
    return prompts.get(task, prompts["text"])


def page_prompt(options: OpenAIEngineOptions) -> DialectPrompt:
    """What a whole-page request of this engine sends: its dialect's documented prompt (the
    config's ``prompts.page`` replaces the user text), with the reading policies added to the
    system prompt of the Qwen dialects."""
    dialect = options.dialect
    if dialect is None:
        raise ConfigError("a whole-page request needs the engine's dialect")
    prompt = PROMPTS[dialect]
    user = options.prompts.get("page", prompt.user)
    system = prompt.system
    if dialect in _POLICY_DIALECTS:
        system = f"{system} {PAGE_READING_POLICY}" if system else PAGE_READING_POLICY
    return DialectPrompt(user=user, system=system)


def max_tokens_for(task: Task, overrides: Mapping[Task, int] | None = None) -> int:
    """The completion budget of a task (the config may set its own per task)."""
    if overrides and task in overrides:
        return overrides[task]
    return DEFAULT_MAX_TOKENS.get(task, DEFAULT_MAX_TOKENS["text"])


def routing_tag(
    page_class: str, task: str, crop_sha256: str, min_pixels: int, max_pixels: int, prompt: str
) -> str:
    """The tag line a router reads, e.g. ``page_class=dense task=figure crop=<sha256>
    pixels=112896-1003520 prompt=<sha256[:16]>``.

    Every block of a task sends the same text prompt, so a response cache keyed on the
    request's text would hand one crop's answer to another: the crop's digest, the pixel
    budget and the prompt's digest make the tag, and so the key, differ wherever the answer
    may differ."""
    prompt_digest = hashlib.sha256(prompt.encode("utf-8")).hexdigest()[:16]
    return (
        f"page_class={page_class} task={task} crop={crop_sha256} "
        f"pixels={min_pixels}-{max_pixels} prompt={prompt_digest}"
    )


def parse_routing_tag(tag: str) -> dict[str, str]:
    """The fields of a routing tag (the inverse of :func:`routing_tag`); a whole-page
    request's system prompt follows the tag on the lines after it."""
    first = tag.splitlines()[0] if tag else ""
    return dict(field.split("=", 1) for field in first.split())


def prompt_set_digest(engines: Iterable[OpenAIEngineOptions]) -> str:
    """A digest of every prompt and token budget the served engines send, per task: the
    router's cache revision, so a prompt change (in code or in the config) never serves an
    answer given to the old prompt."""
    tasks: tuple[Task, ...] = get_args(Task)  # the config's keys are tasks too (validated)
    sets = set()
    for engine in engines:
        used = sorted(tasks)
        sets.add(
            json.dumps(
                {
                    task: [
                        _sent_prompt(engine, task),
                        max_tokens_for(task, engine.max_tokens),
                    ]
                    for task in used
                },
                sort_keys=True,
                ensure_ascii=False,
            )
        )
    payload = "\n".join([ROUTING_TAG_VERSION, *sorted(sets)])
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


def _sent_prompt(engine: OpenAIEngineOptions, task: Task) -> str:
    """The prompt text a request of ``task`` carries (a dialect's system and user text for a
    whole page)."""
    if task == "page" and engine.dialect is not None:
        prompt = page_prompt(engine)
        return f"{prompt.system or ''}\n{prompt.user}"
    return task_prompt(engine.prompt_style, task, engine.prompts)


def task_of_prompt(prompt: str) -> str | None:
    """Which task a paddleocr-vl prompt asks for (None for prompts outside that style)."""
    return TASK_OF_PADDLE_PROMPT.get(prompt.strip())
