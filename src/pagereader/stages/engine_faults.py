"""A served engine that failed, said once per document.

When a VLM server refuses every request, is down, or fails, the route's next engine (the
embedded OCR) answers each block and the output looks complete. That must not pass in
silence: a deployment meant to read on GPUs would be reading on the CPU. So each served engine
with failed attempts (or a failed start-up preflight) becomes one line for the document,
naming the engine, how many requests failed, the server's own message, and what to do. It is an
error of the document (status ``partial``, the CLI exits non-zero) unless the engine's
``fallback_on_refusal`` accepts the fallback, when it is a warning.

A page route's whole-page requests count as the blocks' do; an answer its dialect cannot read
(the server answered) is a warning line of its own, naming the pages and who read them instead.

Page-deadline cuts are not counted: they are the budget at work, not an engine fault.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pagereader.config.options import OpenAIEngineOptions, Options
from pagereader.served_errors import classify
from pagereader.types import Attempt, ErrorItem, PageResult

_NOT_FAULTS = frozenset({"deadline"})


@dataclass(frozen=True)
class EngineFaults:
    """The document's engine-fault lines: errors (the run fails) and warnings (accepted)."""

    errors: tuple[ErrorItem, ...] = ()
    warnings: tuple[str, ...] = ()


def _served(options: Options) -> dict[str, OpenAIEngineOptions]:
    return {n: e for n, e in options.engines.items() if isinstance(e, OpenAIEngineOptions)}


def _hint(attempt: Attempt, name: str, engine: OpenAIEngineOptions) -> str:
    """What to do about a failed attempt, from its kind and status."""
    if attempt.http_status is not None:
        hint = classify(attempt.http_status, attempt.error, name, engine.base_url).hint
    elif attempt.cause == "timeout":
        hint = f"the server took over {engine.timeout_s:g} s: check its load, or raise timeout_s"
    else:
        hint = f"start the server at {engine.base_url}, or fix [engines.{name}] base_url"
    if engine.fallback_on_refusal:
        return hint
    return (
        f"{hint}; or set [engines.{name}] fallback_on_refusal = true to accept the route's "
        "next engine"
    )


def _own(text: str, name: str) -> str:
    """An engine's message without the ``engine NAME (URL): `` it starts with."""
    lead = f"engine {name} ("
    if text.startswith(lead) and "): " in text:
        return text.split("): ", 1)[1]
    return text


def _failures(pages: Sequence[PageResult], name: str) -> tuple[list[Attempt], Counter[str]]:
    """The engine's failed attempts, and who answered the blocks it failed on."""
    failed: list[Attempt] = []
    answered: Counter[str] = Counter()
    for page in pages:
        for block in page.blocks:
            mine = [
                a
                for a in block.attempts
                if a.engine == name and not a.ok and a.cause not in _NOT_FAULTS
            ]
            if mine:
                failed.extend(mine)
                answered[block.engine or "nothing"] += 1
        for record in page.page_answers:
            if record.engine == name and record.error and record.cause not in _NOT_FAULTS:
                failed.append(
                    Attempt(
                        engine=name,
                        ok=False,
                        error=record.error,
                        cause=record.cause,
                        http_status=record.http_status,
                    )
                )
                answered[f"{_page_reader(page)} (whole page)"] += 1
        context = page.context
        if context is not None and context.engine == name and context.error:
            failed.append(Attempt(engine=name, ok=False, error=context.error, cause="engine"))
            answered["no page context"] += 1
    return failed, answered


def _page_reader(page: PageResult) -> str:
    """Who read a page whose page route's engine failed: the next engine, or the block
    routes."""
    used = next((r.engine for r in page.page_answers if r.used), None)
    return used or "the block routes"


def unread_page_answers(pages: Sequence[PageResult], name: str) -> str:
    """One line for the whole-page answers of engine ``name`` that could not be read in its
    dialect (the server answered; the answer was not usable); empty when there were none."""
    unread = [
        (page, record)
        for page in pages
        for record in page.page_answers
        if record.engine == name and not record.error and not record.used
    ]
    if not unread:
        return ""
    dialect = unread[0][1].dialect
    where = ", ".join(f"page {page.index} by {_page_reader(page)}" for page, _ in unread)
    return (
        f"engine {name} ({dialect}): {len(unread)} whole-page answer(s) could not be read in "
        f"its dialect; read instead: {where} (the raw answers are in document.json, "
        "pages[].page_answers)"
    )


def engine_faults(
    file: str,
    pages: Sequence[PageResult],
    options: Options,
    preflight: Mapping[str, ErrorItem] | None = None,
) -> EngineFaults:
    """One line per served engine that failed in this document or at start-up."""
    errors: list[ErrorItem] = []
    warnings: list[str] = []
    for name, engine in _served(options).items():
        unread = unread_page_answers(pages, name)
        if unread:
            warnings.append(unread)
        failed, answered = _failures(pages, name)
        early = (preflight or {}).get(name)
        if not failed and early is None:
            continue
        primary = next((a for a in failed if a.http_status is not None), None)
        primary = primary or (failed[0] if failed else Attempt(engine=name, ok=False))
        parts: list[str] = []
        if early is not None:
            parts.append(f"failed its start-up check ({_own(early.message, name)})")
        if failed:
            refused = sum(1 for a in failed if a.cause in ("refused", "unreachable"))
            parts.append(
                f"{len(failed)} request(s) failed"
                + (f", {refused} refused or not sent" if refused else "")
                + f" (first: {_own(primary.error, name)})"
            )
        if answered:
            who = ", ".join(f"{n} block(s) by {e}" for e, n in sorted(answered.items()))
            parts.append(f"answered instead: {who}")
        message = f"engine {name} ({engine.base_url}): " + "; ".join(parts)
        hint = early.hint if early is not None and early.hint else _hint(primary, name, engine)
        if engine.fallback_on_refusal:
            warnings.append(f"{message} (fallback accepted: {hint})")
        else:
            errors.append(ErrorItem(file=file, stage="recognize", message=message, hint=hint))
    return EngineFaults(tuple(errors), tuple(warnings))
