"""The image memory budget: holders never exceed it, waiters are served in arrival order, an
image heavier than the budget runs alone, and a cancelled waiter gives its place back."""

from __future__ import annotations

import asyncio

import pytest

from pagereader.engine_server.pixel_budget import BYTES_PER_PIXEL, PixelBudget
from pagereader.http.errors import ServiceError
from pagereader.http.json_body import MAX_NUMBER_DIGITS, json_depth, parse_json


async def test_holders_stay_within_the_budget_in_arrival_order() -> None:
    budget = PixelBudget(100)
    order: list[str] = []
    peak = 0

    async def job(name: str, weight: int) -> None:
        nonlocal peak
        async with budget.hold(weight):
            order.append(name)
            peak = max(peak, budget.held)
            await asyncio.sleep(0.01)

    # b (60) must wait for a; c (10) would fit beside a but arrived after b, so it waits too
    await asyncio.gather(job("a", 60), job("b", 60), job("c", 10), job("huge", 10_000))
    assert order == ["a", "b", "c", "huge"]
    assert peak == 100  # b and c held 70 together; huge ran alone, capped at the budget
    assert budget.held == 0


async def test_a_cancelled_waiter_gives_its_place_back() -> None:
    budget = PixelBudget(10)
    async with budget.hold(10):
        waiter = asyncio.ensure_future(budget.hold(10).__aenter__())
        await asyncio.sleep(0)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
    assert budget.held == 0
    async with budget.hold(10):
        assert budget.held == 10


def test_the_weight_counts_the_header_pixels() -> None:
    assert PixelBudget(10**12).weight(7999, 7999) == 7999 * 7999 * BYTES_PER_PIXEL
    assert PixelBudget(1000).weight(7999, 7999) == 1000


def test_nesting_is_counted_outside_strings_only() -> None:
    assert json_depth(b'{"a": [1, {"b": "[[[[\\"[["}]}', 64) == 3
    assert parse_json(b'{"t": "' + b"[" * 1000 + b'"}') == {"t": "[" * 1000}
    with pytest.raises(ServiceError) as refused:
        parse_json(b"[" * 65 + b"]" * 65)
    assert refused.value.status == 400 and "64 levels" in refused.value.message
    assert parse_json(b"[" * 64 + b"]" * 64) is not None


def test_numbers_past_the_digit_bound_are_refused_outside_strings_only() -> None:
    most = "9" * MAX_NUMBER_DIGITS
    assert parse_json(f'{{"n": {most}, "x": -{most}.{most}e{most[:3]}}}'.encode())["n"] == int(most)
    text = "1" * 5000  # digits in a string are text: a correction may hold a long number
    escaped = f'{{"t": "{text}", "u": "\\"{text}"}}'  # an escaped quote does not end a string
    assert parse_json(escaped.encode()) == {"t": text, "u": '"' + text}
    for body in (
        "[1" + "0" * MAX_NUMBER_DIGITS + "]",
        '{"n": 1' + "0" * 4999 + "}",
        "1e" + most + "0",
    ):
        with pytest.raises(ServiceError) as refused:
            parse_json(body.encode())
        assert refused.value.status == 400
        assert f"a number of more than {MAX_NUMBER_DIGITS} digits" in refused.value.message
