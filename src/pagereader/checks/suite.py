"""All checks on one answer, configured from the verifier's options."""

from __future__ import annotations

from pagereader.checks.agreement import check_agreement
from pagereader.checks.base import Subject
from pagereader.checks.critical import check_critical, critical_patterns
from pagereader.checks.empty import check_empty
from pagereader.checks.plausibility import check_plausibility
from pagereader.checks.reasoning import check_reasoning
from pagereader.checks.repetition import check_repetition
from pagereader.checks.script_mismatch import check_script
from pagereader.checks.table import check_table
from pagereader.checks.truncation import check_truncation
from pagereader.config.options import VerifyOptions
from pagereader.types import Finding


def run_checks(subject: Subject, options: VerifyOptions | None = None) -> list[Finding]:
    """Every finding on ``subject``; an empty answer is judged by the empty check alone."""
    options = options or VerifyOptions()
    empty = check_empty(subject)
    if empty:
        return empty
    findings = [
        *check_truncation(subject),
        *check_reasoning(subject, options.reasoning_markers),
        *check_repetition(
            subject,
            options.repetition_min_span,
            options.compression_ratio_max,
            options.compression_min_chars,
        ),
        *check_script(subject),
        *check_table(subject),
        *check_plausibility(subject, options.plausibility_min_confidence),
    ]
    if not any(f.check in ("repetition", "script") for f in findings):
        findings.extend(check_critical(subject, critical_patterns(options.critical_patterns)))
        findings.extend(check_agreement(subject, options.agreement_min, options.agreement_min_ocr))
    return findings
