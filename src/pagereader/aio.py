"""Running a coroutine to completion from synchronous code.

``asyncio.run`` on CPython 3.11 formats the repr of its finished main task while it puts back
the SIGINT handler (``signal.getsignal`` turns the handler into an enum member, and the failed
lookup's message holds the handler, a partial over the task), twice. That repr holds the
task's result: for a parsed document, every block, about 50 ms each time. The result is passed
out beside the task instead, so the task's repr stays short."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)``, returning its value without the task holding it."""
    box: list[T] = []

    async def main() -> None:
        box.append(await coroutine)

    asyncio.run(main())
    return box[0]
