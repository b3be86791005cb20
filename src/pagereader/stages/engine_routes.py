"""Route lookup: ``(page_class, block_kind)`` -> engine chain.

Precedence, most specific first: ``class.kind``, ``*.kind``, ``class.*``, ``*.*``. A kind-wide
route beats a class-wide one so that, say, ``*.table`` keeps tables on the grid engine on
digital pages too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pagereader.config.options import PAGE_ROUTE


def page_route(routes: Mapping[str, Sequence[str]], page_class: str) -> tuple[str, list[str]]:
    """The page route of a page class and its chain: ``class.page``, else ``*.page``; never a
    wildcard kind (``scan.*`` routes blocks, not whole pages). ``("", [])`` when none."""
    for key in (f"{page_class}.{PAGE_ROUTE}", f"*.{PAGE_ROUTE}"):
        if key in routes:
            return key, list(routes[key])
    return "", []


def resolve_route(routes: Mapping[str, Sequence[str]], page_class: str, kind: str) -> list[str]:
    """The engine chain for a block; empty when no route matches."""
    for key in (f"{page_class}.{kind}", f"*.{kind}", f"{page_class}.*", "*.*"):
        if key in routes:
            return list(routes[key])
    return []


TASK_OF_KIND: dict[str, str] = {
    "table": "table",
    "figure": "figure",
    "formula": "formula",
}


def task_for(kind: str) -> str:
    """The engine task a block kind asks for."""
    return TASK_OF_KIND.get(kind, "text")
