"""Empty or whitespace-only answers: a block the layout found but the engine did not read."""

from __future__ import annotations

from pagereader.checks.base import Subject
from pagereader.text.chars import normalize
from pagereader.types import Finding

_MAY_BE_BLANK = frozenset({"figure"})


def check_empty(subject: Subject) -> list[Finding]:
    """An error when a block that holds text came back blank.

    Figures may legitimately have no text; any block whose reference is itself blank is
    not faulted either (the layout may box a rule or a logo).
    """
    if normalize(subject.answer):
        return []
    if subject.kind in _MAY_BE_BLANK:
        return []
    if subject.reference is not None and not normalize(subject.reference):
        return []
    where = f" while the {subject.reference_source} reads text here" if subject.reference else ""
    return [Finding(check="empty", message=f"the answer is empty{where}", severity="error")]
