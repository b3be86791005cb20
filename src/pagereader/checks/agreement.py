"""Agreement: the answer's characters against an independent reading of the same box.

Character consistency ``1 - Lev(a, r) / max(|a|, |r|)`` after NFKC, Markdown stripping and
variant folding, with a threshold per block kind (a title may be styled, a table reordered)
and a looser one when the reference is the embedded OCR rather than the exact text layer.
"""

from __future__ import annotations

from collections.abc import Mapping

from pagereader.checks.base import Subject
from pagereader.text.chars import char_consistency, normalize
from pagereader.types import BlockKind, Finding

_NOT_COMPARED = frozenset({"figure", "formula"})
_DEFAULT_MIN = 0.8


def check_agreement(
    subject: Subject,
    thresholds: Mapping[BlockKind, float],
    ocr_thresholds: Mapping[BlockKind, float],
) -> list[Finding]:
    """An error when consistency with the reference falls below the kind's threshold.

    Figures (descriptions) and formulas (LaTeX against Unicode) are not compared; an empty
    reference says nothing (the text layer or OCR may miss a box that holds text).
    """
    if subject.reference is None or subject.kind in _NOT_COMPARED:
        return []
    reference = normalize(subject.reference)
    if not reference:
        return []
    answer = normalize(subject.answer)
    if not answer:
        return []  # the empty check owns this case
    limits = ocr_thresholds if subject.reference_source == "ocr" else thresholds
    limit = {str(k): v for k, v in limits.items()}.get(subject.kind, _DEFAULT_MIN)
    score = char_consistency(answer, reference)
    if score >= limit:
        return []
    return [
        Finding(
            check="agreement",
            severity="error",
            message=f"character consistency {score:.3f} with the {subject.reference_source} is "
            f"below {limit:.2f} for a {subject.kind} block",
        )
    ]


def consistency(subject: Subject) -> float | None:
    """The consistency score itself (``None`` without a usable reference), for reports."""
    if subject.reference is None:
        return None
    return char_consistency(normalize(subject.answer), normalize(subject.reference))
