"""The verdict helper the check tests share."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pagereader.checks import Possible, Subject, choose_action, run_checks
from pagereader.config.options import VerifyOptions
from pagereader.types import Finding, VerdictOutcome

Judge = Callable[[Subject, Possible], tuple[list[Finding], VerdictOutcome]]


def _judge(subject: Subject, possible: Possible) -> tuple[list[Finding], VerdictOutcome]:
    options = VerifyOptions()
    findings = run_checks(subject, options)
    action, _ = choose_action(findings, possible, options.remedies)
    return findings, action


@pytest.fixture
def judge() -> Judge:
    """The findings on a subject and the verdict the default policy draws from them."""
    return _judge
