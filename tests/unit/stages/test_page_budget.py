"""The page's work bound, fed values: a text layer too large, blocks cut, seconds spent, a
stop from another thread, and a stage abandoned past its grace."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from pagereader.config.options import BudgetOptions, ClassifyOptions
from pagereader.stages import page_budget
from pagereader.stages.classify import text_layer_trusted
from pagereader.stages.page_budget import PageBudget, PageStopped, cap_blocks, text_layer_over
from pagereader.types import Block, ErrorItem, PageFeatures


def test_a_text_layer_over_the_bound_is_not_trusted_and_says_why() -> None:
    options = ClassifyOptions(max_page_chars=50_000)
    assert text_layer_over(50_000, options) == ""
    trusted, why = text_layer_trusted(PageFeatures(text_chars=100_000), 0.0, options)
    assert not trusted
    assert "100,000 characters" in why and "classify.max_page_chars (50,000)" in why


def test_blocks_past_the_bound_are_cut_in_reading_order() -> None:
    blocks = [Block(kind="text", bbox=(0, i, 10, i + 1), order=i) for i in range(5)]
    kept, error = cap_blocks(blocks, BudgetOptions(max_page_blocks=3), "f.pdf", 2)
    assert [b.order for b in kept] == [0, 1, 2]
    assert error is not None and error.page == 2 and error.stage == "layout"
    assert "budget.max_page_blocks (3)" in error.message
    assert cap_blocks(blocks, BudgetOptions(max_page_blocks=5), "f.pdf", 2) == (blocks, None)


def test_a_spent_budget_stops_work_and_records_one_error() -> None:
    budget = PageBudget(max_s=0.05)
    budget.check("layout")
    time.sleep(0.06)
    with pytest.raises(PageStopped, match=r"budget\.max_page_s \(0\.05 s\) during layout"):
        budget.check("layout")
    errors: list[ErrorItem] = []
    budget.record(errors, "f.pdf", 1, "recognize")
    budget.record(errors, "f.pdf", 1, "verify")
    assert len(errors) == 1 and errors[0].page == 1


def test_nothing_is_recorded_when_no_work_was_left_undone() -> None:
    budget = PageBudget(max_s=0.0)
    errors: list[ErrorItem] = []
    budget.record(errors, "f.pdf", 1, "recognize")
    assert errors == []


def test_a_stop_reaches_a_worker_thread_at_its_next_check() -> None:
    budget = PageBudget()
    ended = threading.Event()
    seen: list[BaseException] = []

    def work() -> None:
        try:
            while True:
                budget.check("layout")
                time.sleep(0.005)
        except PageStopped as exc:
            seen.append(exc)
        ended.set()

    threading.Thread(target=work, daemon=True).start()
    time.sleep(0.05)
    assert not ended.is_set()
    budget.stop()
    assert ended.wait(1.0)
    assert "cancelled during layout" in str(seen[0])


def test_a_cancelled_stage_stops_its_threads() -> None:
    budget = PageBudget()
    ended = threading.Event()

    def work() -> None:
        while not budget.spent():
            time.sleep(0.005)
        ended.set()

    async def main() -> None:
        task = asyncio.create_task(budget.bound("layout", asyncio.to_thread(work)))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert ended.wait(1.0)


def test_a_stage_that_misses_its_checks_is_abandoned_after_the_grace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(page_budget, "STOP_GRACE_S", 0.1)
    budget = PageBudget(max_s=0.05)

    async def main() -> float:
        started = time.monotonic()
        with pytest.raises(PageStopped, match="during layout"):
            await budget.bound("layout", asyncio.sleep(30))
        return time.monotonic() - started

    assert asyncio.run(main()) < 2.0
    assert budget.cancelled
