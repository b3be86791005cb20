"""The verifier's checks: pure functions of one answer and its reference, one check a module.

``run_checks`` runs them all; ``policy.choose_action`` turns their findings into a verdict.
"""

from pagereader.checks.base import Subject
from pagereader.checks.policy import Possible, choose_action
from pagereader.checks.suite import run_checks

__all__ = ["Possible", "Subject", "choose_action", "run_checks"]
