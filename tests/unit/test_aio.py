"""aio.run: a coroutine's value comes back, and nothing formats it on the way."""

from __future__ import annotations

import asyncio

import pytest

from pagereader import aio


class Counted:
    """A value that counts how often it is formatted."""

    reprs = 0

    def __repr__(self) -> str:
        Counted.reprs += 1
        return "Counted()"


async def _value() -> list[Counted]:
    await asyncio.sleep(0)
    return [Counted()]


def test_the_value_comes_back_unformatted() -> None:
    Counted.reprs = 0
    value = aio.run(_value())
    assert len(value) == 1 and isinstance(value[0], Counted)
    assert Counted.reprs == 0


def test_an_error_propagates() -> None:
    async def failing() -> None:
        raise ValueError("page 3 of a.pdf")

    with pytest.raises(ValueError, match=r"page 3 of a\.pdf"):
        aio.run(failing())
