"""Truncation: the engine stopped at its token limit, so the answer ends mid-block."""

from __future__ import annotations

from pagereader.checks.base import Subject
from pagereader.types import Finding


def check_truncation(subject: Subject) -> list[Finding]:
    """An error for ``finish_reason == "length"`` (MinerU rejects these answers too)."""
    if subject.finish_reason != "length":
        return []
    tail = subject.answer.strip()[-40:].replace("\n", " ")
    return [
        Finding(
            check="truncation",
            message=f"the engine hit its token limit (finish_reason 'length'); the answer ends "
            f"with {tail!r}",
            severity="error",
        )
    ]
