"""Stage timers per page, timings.json, and the budget summary.

A page's stages are timed back to back, so the stage seconds add up to the page total: the
timer measures each stage's own wall time and the total is their sum.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from pagereader.types import PageResult, StageTimes


class PageTimer:
    """Accumulates seconds per named stage for one page. ``stages``: the names every page
    lists, in order, also those that did not run on it (the pipeline's own list of stages)."""

    def __init__(self, stages: Sequence[str] = ()) -> None:
        self._names = tuple(stages)
        self._stages: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self._stages[name] = self._stages.get(name, 0.0) + time.perf_counter() - start

    def result(self) -> StageTimes:
        stages = {name: round(self._stages.get(name, 0.0), 6) for name in self._names}
        stages.update({k: round(v, 6) for k, v in self._stages.items() if k not in stages})
        return StageTimes(stages=stages, total=round(sum(stages.values()), 6))


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (``share`` in 0..1) of ``values``, 0 for none: always a
    time some page took, so a p95 within the budget means that page was. The one percentile of
    timings.json, ``bench`` and the batch summary."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(share * len(ordered))))
    return ordered[rank - 1]


def timings_document(
    pages: Sequence[PageResult], budget_s: float, wall_s: float | None = None
) -> dict[str, Any]:
    """The content of timings.json: per page stages and totals, and a summary per page class."""
    rows: list[dict[str, Any]] = []
    for page in pages:
        if page.timings is None:
            continue
        calls: dict[str, int] = {}
        for block in page.blocks:
            for attempt in block.attempts:
                calls[attempt.engine] = calls.get(attempt.engine, 0) + 1
        rows.append(
            {
                "page": page.index,
                "page_class": page.decision.page_class if page.decision else None,
                "stages": page.timings.stages,
                "total": page.timings.total,
                "blocks": len(page.blocks),
                "engine_calls": calls,
            }
        )
    by_class: dict[str, list[float]] = {}
    for row in rows:
        by_class.setdefault(str(row["page_class"]), []).append(row["total"])
    totals = [row["total"] for row in rows]
    names = dict.fromkeys(name for row in rows for name in row["stages"])  # as timed, in order
    stage_sums = {s: sum(r["stages"].get(s, 0.0) for r in rows) for s in names}
    summary: dict[str, Any] = {
        "pages": len(rows),
        "budget_s": budget_s,
        "p50_s": round(percentile(totals, 0.50), 4),
        "p95_s": round(percentile(totals, 0.95), 4),
        "max_s": round(max(totals), 4) if totals else 0.0,
        "over_budget": sum(1 for t in totals if t > budget_s),
        "dominant_stage": max(stage_sums, key=lambda s: stage_sums[s]) if rows else None,
        "stage_seconds": {k: round(v, 4) for k, v in stage_sums.items()},
        "by_class": {
            cls: {
                "pages": len(v),
                "p50_s": round(percentile(v, 0.50), 4),
                "p95_s": round(percentile(v, 0.95), 4),
                "max_s": round(max(v), 4),
            }
            for cls, v in by_class.items()
        },
    }
    if wall_s is not None:
        summary["wall_s"] = round(wall_s, 4)
    return {"pages": rows, "summary": summary}
