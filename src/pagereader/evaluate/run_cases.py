"""Run engines over evaluation cases and score every page.

An engine here is any async callable ``(file, page) -> Markdown of that page``; the pipeline,
a single OCR engine or a stub in a test all fit, so the scoring never depends on how the text
was produced.
"""

from __future__ import annotations

import asyncio
import difflib
import logging
import os
import re
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

from pagereader.evaluate.cases import EvalCase
from pagereader.evaluate.eval_report import EvalReport, PageRow, RuleRow, WorstPage, summarize
from pagereader.evaluate.metrics import (
    SPACE_DELIMITED,
    cer,
    char_consistency,
    critical_agreement,
    critical_patterns,
    normalize,
    page_teds,
    wer,
)
from pagereader.evaluate.olmocr import check_rule

logger = logging.getLogger(__name__)

Engine = Callable[[Path, int], Awaitable[str]]
_MARKED_UP = re.compile(r"<table|<t[dr][ >]|^\s{0,3}#{1,6}\s|^\s*\|.*\|\s*$", re.I | re.M)


def _labels(cases: Sequence[EvalCase]) -> list[str]:
    """Each case's file relative to the common folder of its dataset's files."""
    roots: dict[str, Path] = {}
    for dataset in dict.fromkeys(c.dataset for c in cases):
        parents = [str(c.file.parent) for c in cases if c.dataset == dataset]
        roots[dataset] = Path(os.path.commonpath(parents))
    return [c.file.relative_to(roots[c.dataset]).as_posix() for c in cases]


def score_text(case: EvalCase, hypothesis: str, *, fold_variants: bool = True) -> dict[str, object]:
    """The text metrics of one page: consistency, CER, WER (space-delimited languages only),
    critical-token agreement and, where the reference has tables, TEDS."""
    reference = case.reference or ""
    ref_markup = case.reference_markdown or bool(_MARKED_UP.search(reference))
    hyp = normalize(hypothesis, fold_variants=fold_variants, markdown=True)
    ref = normalize(reference, fold_variants=fold_variants, markdown=ref_markup)
    scores: dict[str, object] = {
        "char_consistency": char_consistency(hyp, ref),
        "cer": cer(hyp, ref),
    }
    if case.lang.split("-")[0] in SPACE_DELIMITED:
        scores["wer"] = wer(
            normalize(hypothesis, fold_variants=fold_variants, markdown=True, keep_spaces=True),
            normalize(
                reference, fold_variants=fold_variants, markdown=ref_markup, keep_spaces=True
            ),
        )
    patterns = case.critical or critical_patterns(case.lang)
    agreement = critical_agreement(
        normalize(hypothesis, fold_variants=fold_variants, markdown=True, keep_spaces=True),
        normalize(reference, fold_variants=fold_variants, markdown=ref_markup, keep_spaces=True),
        patterns,
    )
    scores["critical_ok"] = agreement.ok
    scores["critical_score"] = agreement.score
    scores["critical_changes"] = agreement.changes
    scores["teds"] = page_teds(hypothesis, reference)
    return scores


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else f"{text[: width // 2]}…{text[-width // 2 :]}"


def short_diff(
    reference: str,
    hypothesis: str,
    *,
    context: int = 12,
    limit: int = 8,
    width: int = 80,
    reference_markdown: bool = False,
) -> str:
    """The first ``limit`` edits from reference to hypothesis as ``[-ref-]{+hyp+}`` with a
    little context each, on whitespace-collapsed text (characters, so CJK diffs read well);
    long edits are clipped to ``width`` characters. ``reference_markdown``: the reference is
    an engine's Markdown, stripped as the hypothesis is."""
    ref = normalize(reference, markdown=reference_markdown, keep_spaces=True)
    hyp = normalize(hypothesis, markdown=True, keep_spaces=True)
    matcher = difflib.SequenceMatcher(None, ref, hyp, autojunk=False)
    pieces: list[str] = []
    edits = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    for tag, i1, i2, j1, j2 in edits[:limit]:
        before = ref[max(0, i1 - context) : i1]
        removed = f"[-{_clip(ref[i1:i2], width)}-]" if tag in ("replace", "delete") else ""
        added = f"{{+{_clip(hyp[j1:j2], width)}+}}" if tag in ("replace", "insert") else ""
        pieces.append(f"…{before}{removed}{added}{ref[i2 : i2 + context]}…")
    if len(edits) > limit:
        pieces.append(f"(+{len(edits) - limit} more edits)")
    return "\n".join(pieces) if pieces else "(no differences)"


async def _run_one(
    name: str,
    engine: Engine,
    case: EvalCase,
    label: str,
    gate: asyncio.Semaphore,
    fold_variants: bool,
) -> tuple[PageRow, list[RuleRow], str]:
    async with gate:
        started = time.perf_counter()
        error = ""
        try:
            text = await engine(case.file, case.page)
        except Exception as exc:  # an engine failure is a result to report, not a crash
            logger.warning("%s failed on %s page %d: %s", name, case.file, case.page, exc)
            text, error = "", f"{type(exc).__name__}: {exc}"
        seconds = time.perf_counter() - started
    base = {"engine": name, "dataset": case.dataset, "file": label, "page": case.page}
    rule_rows = [
        RuleRow(**base, id=rule.id, type=rule.type, passed=result.passed, reason=result.reason)
        for rule in case.rules
        for result in (check_rule(rule, text),)
    ]
    if case.kind == "rules":
        row = PageRow(
            **base,
            lang=case.lang,
            rules_passed=sum(r.passed for r in rule_rows),
            rules_total=len(rule_rows),
            seconds=seconds,
            error=error,
        )
    else:
        scores = score_text(case, text, fold_variants=fold_variants)
        fields = {**base, "lang": case.lang, "seconds": seconds, "error": error, **scores}
        row = PageRow.model_validate(fields)
    return row, rule_rows, text


async def run_eval(
    cases: Sequence[EvalCase],
    engines: Mapping[str, Engine],
    *,
    concurrency: int = 1,
    fold_variants: bool = True,
    worst: int = 10,
    n_boot: int = 2000,
    seed: int = 0,
    reference_engine: str | None = None,
) -> EvalReport:
    """Run every engine on every case and return the scored report.

    Engines run one after another (so their timings do not disturb each other); within an
    engine up to ``concurrency`` pages are in flight. A failing page is scored as empty text
    and its error kept in the row. ``reference_engine`` names the engine whose reading the
    cases' references are, where they are not ground truth.
    """
    gate = asyncio.Semaphore(max(1, concurrency))
    rows: list[PageRow] = []
    rule_rows: list[RuleRow] = []
    texts: dict[tuple[str, int], str] = {}
    labels = _labels(cases) if cases else []
    for name, engine in engines.items():
        results = await asyncio.gather(
            *(
                _run_one(name, engine, case, label, gate, fold_variants)
                for case, label in zip(cases, labels, strict=True)
            )
        )
        for index, (row, rules, text) in enumerate(results):
            rows.append(row)
            rule_rows.extend(rules)
            texts[(name, index)] = text
    worst_pages = _worst(cases, list(engines), rows, texts, worst)
    return EvalReport(
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        engines=tuple(engines),
        datasets=tuple(dict.fromkeys(c.dataset for c in cases)),
        rows=tuple(rows),
        rule_rows=tuple(rule_rows),
        summary=tuple(summarize(rows, rule_rows, n_boot=n_boot, seed=seed)),
        worst=tuple(worst_pages),
        reference_engine=reference_engine,
    )


def _worst(
    cases: Sequence[EvalCase],
    engines: list[str],
    rows: list[PageRow],
    texts: dict[tuple[str, int], str],
    count: int,
) -> list[WorstPage]:
    scored = [
        (row.char_consistency, engine_index, case_index)
        for engine_index, _ in enumerate(engines)
        for case_index in range(len(cases))
        for row in (rows[engine_index * len(cases) + case_index],)
        if row.char_consistency is not None
    ]
    out: list[WorstPage] = []
    for consistency, engine_index, case_index in sorted(scored)[:count]:
        row = rows[engine_index * len(cases) + case_index]
        case = cases[case_index]
        out.append(
            WorstPage(
                engine=row.engine,
                dataset=row.dataset,
                file=row.file,
                page=row.page,
                char_consistency=consistency,
                cer=row.cer or 0.0,
                critical_changes=row.critical_changes,
                diff=short_diff(
                    case.reference or "",
                    texts[(row.engine, case_index)],
                    reference_markdown=case.reference_markdown,
                ),
            )
        )
    return out
