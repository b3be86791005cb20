"""Verify stage: every answer is checked against what else is known, and acted on.

For each block the stage finds an independent reference (the text layer inside the block on
digital pages; on scans, when the policy asks for it, the embedded OCR of the same block,
cheap next to a VLM call), runs the checks, and follows the verdict: ``retry`` asks the same
engine again with more pixels, ``escalate`` walks the rest of the route's chain, ``fallback``
takes the trusted reference text, ``review`` keeps the answer and flags it. Every extra call is
an attempt, and the verdict names the remedy that produced the final text with the findings
behind it; ``accept`` means the first answer was clean.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time

from pagereader.checks import Possible, Subject, choose_action, run_checks
from pagereader.checks.plausibility import page_findings
from pagereader.config.options import Options
from pagereader.runtime import Runtime
from pagereader.stages.engine_routes import resolve_route
from pagereader.stages.finer_render import finer_crop
from pagereader.stages.page_boxes import both_readings, unsupported_box
from pagereader.stages.page_budget import unverified
from pagereader.stages.page_read import read_from_page
from pagereader.stages.recognize import (
    build_request,
    call_engine,
    failed_attempt,
    recognize_block,
)
from pagereader.stages.retry_pixels import Gain, no_gain, pixel_gain, raised_pixels
from pagereader.stages.state import PageState
from pagereader.stages.verify_reference import Reference, find_reference, own_signals
from pagereader.types import (
    TEXT_KINDS,
    Attempt,
    BlockResult,
    Finding,
    Verdict,
    VerdictOutcome,
)

logger = logging.getLogger(__name__)


def _pixel_blind(ctx: Runtime, name: str) -> bool:
    """Whether more pixels cannot change this engine's answer (its class says so, or the
    options name it)."""
    engine = ctx.engines.get(name)
    blind = engine is not None and engine.pixel_blind
    return blind or name in ctx.options.verify.pixel_blind_engines


def basic_verdict(result: BlockResult) -> Verdict:
    """The verdict of a block no check can judge: a failed chain, or none attempted."""
    if not result.attempts:
        return Verdict(outcome="accept")
    findings: list[Finding] = []
    if not result.engine:
        findings.append(
            Finding(check="failed", message="no engine could read this block", severity="error")
        )
    if any(not attempt.ok for attempt in result.attempts) and result.engine:
        failed = ", ".join(a.engine for a in result.attempts if not a.ok)
        findings.append(
            Finding(check="fallback", message=f"answered after {failed} failed", severity="info")
        )
    action: VerdictOutcome = "review" if any(f.severity != "info" for f in findings) else "accept"
    return Verdict(outcome=action, findings=tuple(findings))


def _subject(
    result: BlockResult,
    reference: Reference,
    page_script: str,
    finish_reason: str | None,
    decision_script: str = "unknown",
) -> Subject:
    return Subject(
        text=result.text,
        kind=result.block.kind,
        html=result.html,
        engine=result.engine,
        finish_reason=finish_reason,
        reference=reference.text,
        reference_source=reference.source,
        page_script=page_script,
        confidence=result.confidence,
        decision_script=decision_script,
    )


@dataclasses.dataclass
class _Walk:
    """One block's way through the remedies."""

    result: BlockResult
    chain: list[str]
    position: int
    finish_reason: str | None = None
    retries: int = 0
    max_pixels: int = 0
    whole_page: bool = False
    """The answer is a block of a whole-page answer: no block request of that engine to retry."""


def _possible(
    ctx: Runtime, walk: _Walk, reference: Reference, gain: Gain | None = None
) -> Possible:
    options = ctx.options.verify
    name = walk.chain[walk.position] if walk.position < len(walk.chain) else walk.result.engine
    raised = raised_pixels(options, walk.max_pixels)
    trusted = reference.source == "textlayer" or (
        reference.source == "ocr" and options.fallback_to_ocr
    )
    return Possible(
        can_retry=(
            not walk.whole_page
            and walk.retries < options.max_retries
            and not _pixel_blind(ctx, name)
            and not _pixel_blind(ctx, walk.result.engine)
            and raised > walk.max_pixels
            and (gain is None or gain.after > gain.before)
        ),
        can_escalate=walk.position + 1 < len(walk.chain),
        can_fallback=bool(
            trusted
            and reference.text
            and reference.text.strip()
            and walk.result.block.kind in TEXT_KINDS
        ),
    )


async def _retry(ctx: Runtime, state: PageState, walk: _Walk, gain: Gain | None) -> str:
    options = ctx.options.verify
    name = walk.chain[walk.position]
    walk.max_pixels = raised_pixels(options, walk.max_pixels)
    walk.retries += 1
    request = build_request(state, walk.result.block)
    request = dataclasses.replace(
        request, max_pixels=walk.max_pixels, min_pixels=min(request.min_pixels, walk.max_pixels)
    )
    where = ""
    if gain is not None and gain.scale is not None:
        image = await finer_crop(state, walk.result.block, request.crop_box_px, gain.scale)
        request = dataclasses.replace(request, image=image)
        where = f", from a {gain.scale * state.rendered.units_per_inch:.0f} DPI render"
    start = time.perf_counter()
    try:
        answer = await call_engine(ctx, name, request, state.budget)
    except Exception as exc:
        attempt = failed_attempt(name, start, exc)
        error = attempt.error
        walk.result = walk.result.model_copy(update={"attempts": (*walk.result.attempts, attempt)})
        return f"retry {name} at {walk.max_pixels:,} pixels{where} failed: {error}"
    latency = time.perf_counter() - start
    walk.finish_reason = answer.finish_reason
    walk.result = walk.result.model_copy(
        update={
            "text": answer.text,
            "html": answer.html,
            "engine": answer.engine,
            "confidence": answer.confidence,
            "finish_reason": answer.finish_reason,
            "latency_s": round(walk.result.latency_s + latency, 4),
            "attempts": (
                *walk.result.attempts,
                Attempt(
                    engine=answer.engine,
                    ok=True,
                    latency_s=latency,
                    finish_reason=answer.finish_reason,
                    prompt_tokens=answer.prompt_tokens,
                    completion_tokens=answer.completion_tokens,
                    http_status=answer.http_status,
                ),
            ),
        }
    )
    return f"retried {name} at {walk.max_pixels:,} pixels{where}"


async def _escalate(ctx: Runtime, state: PageState, walk: _Walk) -> str:
    rest = walk.chain[walk.position + 1 :]
    fresh, error = await recognize_block(ctx, state, walk.result.block, rest)
    attempts = (*walk.result.attempts, *fresh.attempts)
    walk.position += len(fresh.attempts)
    if error is not None:
        walk.result = walk.result.model_copy(update={"attempts": attempts})
        return f"escalation to {', '.join(rest)} failed"
    walk.finish_reason = None
    walk.retries = 0
    walk.result = fresh.model_copy(
        update={
            "attempts": attempts,
            "latency_s": round(walk.result.latency_s + fresh.latency_s, 4),
        }
    )
    return f"escalated to {fresh.engine}"


def _fallback(walk: _Walk, reference: Reference) -> str:
    engine = "textlayer" if reference.source == "textlayer" else f"{reference.source}-reference"
    walk.result = walk.result.model_copy(
        update={
            "text": reference.text or "",
            "html": None,
            "engine": engine,
            "confidence": None,
        }
    )
    return f"fell back to the {reference.source} text"


async def verify_block(
    ctx: Runtime, state: PageState, result: BlockResult, chain: list[str]
) -> BlockResult:
    """Check one answer and apply remedies until it is clean or flagged for review."""
    options = ctx.options.verify
    if not options.enabled:
        return result
    if not result.engine:
        return result.model_copy(update={"verdict": basic_verdict(result)})
    if state.budget.spent():
        return unverified(result, state.budget.halt("verify"))
    whole_page = read_from_page(result.block)
    if whole_page:
        flagged = await asyncio.to_thread(unsupported_box, state, result)
        if flagged is not None:
            return flagged
    position = max(0, len(result.attempts) - 1)
    walk = _Walk(
        result=result,
        chain=chain,
        position=position,
        finish_reason=result.finish_reason,
        max_pixels=state.decision.max_pixels if state.decision else 0,
        whole_page=whole_page,
    )
    name = chain[position] if position < len(chain) else result.engine
    reference = await find_reference(ctx, state, result, name)
    embedded = {name, result.engine} & own_signals(ctx)
    decided = state.decision.script if state.decision else "unknown"
    page_script = decided if not embedded else "unknown"
    history: list[Finding] = list(basic_verdict(result).findings)
    final: VerdictOutcome = "accept"
    for step_index in range(options.max_steps + 1):
        findings = run_checks(
            _subject(walk.result, reference, page_script, walk.finish_reason, decided), options
        )
        history.extend(f for f in findings if f not in history)
        last = step_index == options.max_steps
        name = walk.chain[walk.position] if walk.position < len(walk.chain) else walk.result.engine
        gain = (
            None
            if last or walk.whole_page
            else pixel_gain(ctx, state, walk.result.block, walk.max_pixels, name)
        )
        possible = Possible() if last else _possible(ctx, walk, reference, gain)
        action, lead = choose_action(findings, possible, options.remedies)
        if gain is not None and gain.after <= gain.before and findings and action != "retry":
            unchanged = no_gain(name, walk.max_pixels, gain)
            if unchanged not in history:
                history.append(unchanged)
        if action in ("accept", "review"):
            final = final if action == "accept" else "review"
            break
        final = action
        if action == "retry":
            step = await _retry(ctx, state, walk, gain)
        elif action == "escalate":
            step = await _escalate(ctx, state, walk)
            name = walk.chain[min(walk.position, len(walk.chain) - 1)]
            if {name, walk.result.engine} & own_signals(ctx):
                reference, page_script = Reference(), "unknown"
        else:
            step = _fallback(walk, reference)
        history.append(
            Finding(
                check="remedy",
                severity="info",
                message=f"{lead.check if lead else 'finding'}: {step}",
            )
        )
        if action == "fallback":
            break
    logger.debug("%s page %s block %s: %s", state.file, state.index, result.block.order, final)
    if whole_page and final == "review" and reference.text is not None:
        history.append(both_readings(str(reference.source), reference.text))
    return walk.result.model_copy(
        update={"verdict": Verdict(outcome=final, findings=tuple(history))}
    )


async def run_verify(ctx: Runtime, state: PageState) -> PageState:
    """Verify every block of the page concurrently."""
    assert state.decision is not None
    if state.rendered.native is not None:  # the deck's own text: nothing to compare it with
        return state
    page_class = state.decision.page_class
    routes = ctx.options.routes
    state.results = list(
        await asyncio.gather(
            *(
                verify_block(
                    ctx,
                    state,
                    result,
                    [result.engine]
                    if state.read_whole
                    else resolve_route(routes, page_class, result.block.kind),
                )
                for result in state.results
            )
        )
    )
    state.budget.record(state.errors, state.file, state.index, "verify")
    if ctx.options.verify.enabled and not state.trusted_text:
        state.results = flag_implausible_page(state.results, state.decision.script, ctx.options)
    return state


def flag_implausible_page(
    results: list[BlockResult], script: str, options: Options
) -> list[BlockResult]:
    """A scan whose OCR text as a whole is implausible: every text block kept for review."""
    text_blocks = [r for r in results if r.block.kind in TEXT_KINDS]
    findings = page_findings(
        [r.text for r in text_blocks],
        [r.confidence for r in text_blocks],
        sum(len(r.block.lines) for r in text_blocks),
        script,
        options.verify.plausibility_min_confidence,
    )
    if not findings:
        return results
    logger.debug("implausible page text: %s", "; ".join(f.message for f in findings))
    return [
        r.model_copy(
            update={
                "verdict": Verdict(
                    outcome="review" if r.verdict.outcome == "accept" else r.verdict.outcome,
                    findings=(*r.verdict.findings, *findings),
                )
            }
        )
        if r.block.kind in TEXT_KINDS
        else r
        for r in results
    ]
