"""What every check looks at: one answer, and the independent reference it is judged against."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ReferenceSource = Literal["textlayer", "ocr"]


@dataclass(frozen=True)
class Subject:
    """One block's answer with what else is known about the block.

    ``reference`` is the text an independent signal reads in the same box: the PDF text layer
    on digital pages (exact), or the embedded OCR on scans (approximate); ``None`` when there
    is none, and then only the self-checks (empty, repetition, truncation, reasoning, table
    structure) apply. ``page_script`` is the decision layer's script of the page where the script
    check may use it (not for the embedded engines' own answers); ``decision_script`` is that
    script always, and ``confidence`` the engine's own (both for the plausibility check).
    """

    text: str
    kind: str = "text"
    html: str | None = None
    engine: str = ""
    finish_reason: str | None = None
    reference: str | None = None
    reference_source: ReferenceSource | None = None
    page_script: str = "unknown"
    confidence: float | None = None
    decision_script: str = "unknown"

    @property
    def answer(self) -> str:
        """The answer as one string: the text, or the table HTML when there is no text."""
        return self.text if self.text.strip() else (self.html or "")

    @property
    def has_reference(self) -> bool:
        return self.reference is not None
