"""Stage timers against the wall clock; the SQLite page cache round-trips pages."""

from __future__ import annotations

import time
from pathlib import Path

from pagereader.batch.manifest import Outcome
from pagereader.batch.progress import BatchStats
from pagereader.config.options import Options
from pagereader.pipeline import STAGE_NAMES, STAGES
from pagereader.reuse.cache import PageCache, options_digest
from pagereader.timing import PageTimer, timings_document
from pagereader.types import ErrorItem, PageResult


def test_stage_times_match_the_wall_clock() -> None:
    """The stages are timed as they run: the total is at least the time slept inside them and
    at most the wall clock around them less the untimed pause between them."""
    timer = PageTimer(STAGE_NAMES)
    pauses = {"render": 0.02, "classify": 0.01, "layout": 0.03}
    untimed = 0.05
    start = time.perf_counter()
    for name, pause in pauses.items():
        with timer.stage(name):
            time.sleep(pause)
        if name == "classify":
            time.sleep(untimed)
    wall = time.perf_counter() - start
    result = timer.result()
    assert list(result.stages) == list(STAGE_NAMES)
    for name, pause in pauses.items():
        assert result.stages[name] >= pause
    assert sum(pauses.values()) <= result.total <= wall - untimed
    with timer.stage("render"):  # a stage entered twice accumulates
        time.sleep(0.01)
    assert timer.result().stages["render"] >= pauses["render"] + 0.01


def test_every_stage_of_the_pipeline_is_timed_and_summed() -> None:
    """The stages timings.json lists are the pipeline's own: a stage that dominates is named
    dominant whatever its name (the pictures stage was once left out of the summary)."""
    assert ("render", *(name for name, _ in STAGES)) == STAGE_NAMES
    assert "pictures" in STAGE_NAMES
    timer = PageTimer(STAGE_NAMES)
    timer._stages = {"render": 0.1, "pictures": 3.0, "recognize": 0.5}
    page = PageResult(index=1, width=1, height=1, timings=timer.result())
    summary = timings_document([page], budget_s=5.0)["summary"]
    assert list(summary["stage_seconds"]) == list(STAGE_NAMES)
    assert summary["dominant_stage"] == "pictures" and summary["stage_seconds"]["pictures"] == 3.0


def test_timings_document_summary() -> None:
    pages = []
    for i, total in enumerate([1.0, 2.0, 7.0], start=1):
        timer = PageTimer()
        timer._stages = {"render": total / 2, "recognize": total / 2}
        pages.append(PageResult(index=i, width=1, height=1, timings=timer.result()))
    doc = timings_document(pages, budget_s=5.0)
    assert [p["page"] for p in doc["pages"]] == [1, 2, 3]
    assert doc["summary"]["over_budget"] == 1
    assert doc["summary"]["max_s"] == 7.0
    assert doc["summary"]["dominant_stage"] in ("render", "recognize")
    # one percentile everywhere: the batch summary's p95 of the same pages is the same
    assert doc["summary"]["p95_s"] == 7.0 and doc["summary"]["p50_s"] == 2.0
    stats = BatchStats()
    stats.add(
        Outcome(
            uri="a.pdf",
            name="a",
            status="ok",
            pages=3,
            page_classes=tuple(("digital", p.timings.total if p.timings else 0.0) for p in pages),
        )
    )
    row = stats.summary()["seconds_per_page"]["digital"]  # type: ignore[index]
    assert row["p95"] == doc["summary"]["p95_s"] and row["p50"] == doc["summary"]["p50_s"]


def test_cache_round_trip_and_skips_failed_pages(tmp_path: Path) -> None:
    cache = PageCache(tmp_path / "c.sqlite")
    key = options_digest(Options())
    good = PageResult(index=2, width=10, height=20, markdown="hello")
    bad = PageResult(
        index=3,
        width=10,
        height=20,
        errors=(ErrorItem(file="f", page=3, stage="layout", message="boom"),),
    )
    cache.put("abc", key, good)
    cache.put("abc", key, bad)
    assert cache.get("abc", key, 2) == good
    assert cache.get("abc", key, 3) is None
    assert cache.get("abc", options_digest(Options(lang="ko")), 2) is None
    cache.close()
