"""Script mismatch: a Latin answer where the box holds Chinese or Korean, or the reverse.

A VLM asked about a Korean block may answer in romanization or translate it to English; an
engine without a Hangul dictionary answers Han look-alikes. Both read fluently and both are
wrong. The reference's script decides; without a reference, the page's script does.
"""

from __future__ import annotations

from pagereader.checks.base import Subject
from pagereader.text.chars import dominant_script, normalize
from pagereader.types import Finding

_DEFINITE = frozenset({"latin", "han", "hangul"})
_MIN_LETTERS = 6
_NAMES = {"latin": "Latin", "han": "Han (Chinese)", "hangul": "Hangul (Korean)"}


def check_script(subject: Subject) -> list[Finding]:
    """An error when the answer's dominant script differs from the expected one."""
    if subject.kind in ("figure", "formula"):
        return []
    if subject.reference is not None:
        expected: str = dominant_script(normalize(subject.reference), _MIN_LETTERS)
        source = f"the {subject.reference_source}"
    else:
        expected, source = subject.page_script, "the page"
    got = dominant_script(normalize(subject.answer), _MIN_LETTERS)
    if expected not in _DEFINITE or got not in _DEFINITE or got == expected:
        return []
    message = f"the answer is {_NAMES[got]} where {source} is {_NAMES[expected]}"
    if expected == "hangul" and got == "latin":
        message += " (romanized or translated Korean)"
    return [Finding(check="script", message=message, severity="error")]
