"""Prompt styles for VLM endpoints: what to ask a model for each task, and the routing tag.

``paddleocr-vl`` models are trained on four fixed task prompts and answer nothing else well;
``qwen-vl`` models follow instructions, so their prompts carry the reading policies that keep
legal and business documents faithful (article numbers kept, bleed-through ignored, unreadable
text marked ``[unclear]`` instead of guessed). A config may override any prompt by task name.
"""

from __future__ import annotations

from collections.abc import Mapping

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


def task_prompt(style: str, task: str, overrides: Mapping[str, str] | None = None) -> str:
    """The user prompt for a task: the config's override, else the style's own."""
    if overrides and task in overrides:
        return overrides[task]
    prompts = PROMPT_STYLES[style]
    return prompts.get(task, prompts["text"])


def max_tokens_for(task: str, overrides: Mapping[str, int] | None = None) -> int:
    """The completion budget of a task (the config may set its own per task)."""
    if overrides and task in overrides:
        return overrides[task]
    return DEFAULT_MAX_TOKENS.get(task, DEFAULT_MAX_TOKENS["text"])


def routing_tag(page_class: str, task: str) -> str:
    """The tag line a router reads, e.g. ``page_class=dense task=figure``."""
    return f"page_class={page_class} task={task}"


def task_of_prompt(prompt: str) -> str | None:
    """Which task a paddleocr-vl prompt asks for (None for prompts outside that style)."""
    return TASK_OF_PADDLE_PROMPT.get(prompt.strip())
