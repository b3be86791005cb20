"""Verify stage: every answer is checked before it is trusted; the verdict goes in the JSON."""

from __future__ import annotations

from pagereader.context import RunContext
from pagereader.stages.state import PageState
from pagereader.types import TEXT_KINDS, BlockResult, Finding, Verdict


def basic_verdict(result: BlockResult) -> Verdict:
    """Findings any answer can be judged on without a second signal."""
    findings: list[Finding] = []
    if not result.attempts:
        return Verdict(action="accept")
    if not result.engine:
        findings.append(Finding(check="failed", message="no engine could read this block",
                                severity="error"))
    elif result.block.kind in TEXT_KINDS and not result.text.strip():
        findings.append(Finding(check="empty", message="the answer is empty", severity="warn"))
    if any(not attempt.ok for attempt in result.attempts) and result.engine:
        failed = ", ".join(a.engine for a in result.attempts if not a.ok)
        findings.append(Finding(check="fallback", message=f"answered after {failed} failed",
                                severity="info"))
    action = "review" if any(f.severity != "info" for f in findings) else "accept"
    return Verdict(action=action, findings=tuple(findings))


async def run_verify(ctx: RunContext, state: PageState) -> PageState:
    """Attach a verdict to every block result."""
    state.results = [
        result.model_copy(update={"verdict": basic_verdict(result)}) for result in state.results
    ]
    return state
