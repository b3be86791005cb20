"""Leaked reasoning: a thinking model's monologue in the answer instead of the page's text.

Servers strip a closed ``<think>...</think>`` block; what leaks is an unclosed one (thinking cut
off by the token limit), a stray tag, or a preamble such as "Let me think" at the start.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pagereader.checks.base import Subject
from pagereader.types import Finding

DEFAULT_MARKERS: tuple[str, ...] = (
    r"</?think>",
    r"^\s*(?:okay|ok|alright|hmm+|so)?[,.\s]*let(?:'s| me) (?:think|analy[sz]e|look|see|start|"
    r"break|read|transcribe|examine|carefully)",
    r"^\s*(?:okay|alright)[,.]?\s+(?:so\s+)?(?:i|the user|we)\b",
    r"^\s*(?:first|to begin),? i (?:need|will|should|'ll)\b",
    r"^\s*(?:the user (?:wants|asks|is asking|has provided)|i need to|we need to)\b",
    r"^\s*(?:thinking process|reasoning|analysis)\s*:",
    r"^\s*(?:嗯|好的)[，,]\s*(?:我|用户|讓我|让我)",
    r"^\s*(?:讓我|让我|首先，?我需要)",
)
_HEAD_CHARS = 300


def check_reasoning(subject: Subject, markers: Sequence[str] = ()) -> list[Finding]:
    """An error when a reasoning marker appears (a tag anywhere, a preamble at the start) and
    the reference does not contain the same words (a page may really say "let me think")."""
    head = subject.answer[:_HEAD_CHARS]
    for pattern in markers or DEFAULT_MARKERS:
        regex = re.compile(pattern, re.I | re.M)
        match = regex.search(subject.answer if "think>" in pattern else head)
        if match is None:
            continue
        if subject.reference and regex.search(subject.reference):
            continue
        found = match.group(0).strip()
        return [
            Finding(
                check="reasoning",
                severity="error",
                message=f"reasoning leaked into the answer: {found[:50]!r}",
            )
        ]
    return []
