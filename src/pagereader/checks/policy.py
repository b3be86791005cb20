"""Findings -> verdict: which remedy a block gets.

Each check names, in order, the remedies worth trying for its kind of fault (options
``verify.remedies``); the first one that is possible for this block now is taken:
``retry`` needs a pixel-sensitive engine with retries left, ``escalate`` an untried engine
further down the route, ``fallback`` a trusted reference for a text block, and ``review``
(keep the answer, flag it) is always possible. The most serious fault decides, in the order
of ``PRECEDENCE``: a truncated or looping answer is redone before its wording is judged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pagereader.types import CHECK_NAMES, CheckName, Finding, VerdictOutcome

PRECEDENCE: tuple[str, ...] = CHECK_NAMES
_DEFAULT_LADDER: tuple[VerdictOutcome, ...] = ("retry", "escalate", "fallback", "review")


@dataclass(frozen=True)
class Possible:
    """What is possible for the block at this step."""

    can_retry: bool = False
    can_escalate: bool = False
    can_fallback: bool = False


def actionable(findings: Sequence[Finding]) -> list[Finding]:
    """The findings that call for a remedy (``info`` findings only inform)."""
    return [f for f in findings if f.severity != "info"]


def _rank(finding: Finding) -> int:
    return PRECEDENCE.index(finding.check) if finding.check in PRECEDENCE else len(PRECEDENCE)


def choose_action(
    findings: Sequence[Finding],
    possible: Possible,
    remedies: Mapping[CheckName, Sequence[str]],
) -> tuple[VerdictOutcome, Finding | None]:
    """The action for a block's findings, and the finding that decided it."""
    faults = sorted(actionable(findings), key=_rank)
    if not faults:
        return "accept", None
    allowed = {
        "retry": possible.can_retry,
        "escalate": possible.can_escalate,
        "fallback": possible.can_fallback,
        "review": True,
    }
    lead = faults[0]
    ladders: dict[str, Sequence[str]] = {str(k): v for k, v in remedies.items()}
    for action in ladders.get(lead.check, _DEFAULT_LADDER):
        if allowed.get(action, False):
            return action, lead  # type: ignore[return-value]
    return "review", lead
