"""Evaluation engines: the pipeline under a given route table, as ``(file, page) -> Markdown``.

Each engine parses a file once (only the pages the cases ask for) and serves its pages from
memory, so a deck converted by LibreOffice is converted once per engine.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path

from pagereader.config.options import Options
from pagereader.engines.registry import builtin_engine_names
from pagereader.errors import ConfigError
from pagereader.pipeline import aparse, make_context
from pagereader.types import DocumentResult

PageEngine = Callable[[Path, int], Awaitable[str]]

BUILTIN_EVAL_ENGINES = ("embedded", *builtin_engine_names())
"""``embedded`` (the default routes) and every built-in engine alone."""


def options_for(name: str, base: Options) -> Options:
    """The options that make the pipeline answer with engine ``name`` alone (``embedded``:
    the default routes)."""
    if name == "embedded":
        return base
    if name not in (*BUILTIN_EVAL_ENGINES, *base.engines):
        known = ", ".join((*BUILTIN_EVAL_ENGINES, *base.engines))
        raise ConfigError(f"unknown engine {name!r}", hint=f"choose from: {known}")
    data = base.model_dump()
    data["routes"] = {"*.*": [name]}
    return Options.model_validate(data)


class PipelineEngine:
    """One route table; documents parsed lazily and kept for their other pages."""

    def __init__(self, options: Options, wanted: dict[Path, set[int]]) -> None:
        self._ctx = make_context(options)
        self._options = options
        self._wanted = wanted
        self._docs: dict[Path, asyncio.Task[DocumentResult]] = {}

    async def _document(self, file: Path) -> DocumentResult:
        if file not in self._docs:
            pages = tuple(sorted(self._wanted.get(file, set()))) or None
            data = self._options.model_dump()
            data["pages"] = pages
            ctx = self._ctx.with_options(Options.model_validate(data))
            self._docs[file] = asyncio.ensure_future(aparse(file, ctx=ctx))
        return await self._docs[file]

    async def __call__(self, file: Path, page: int) -> str:
        result = await self._document(file)
        for item in result.pages:
            if item.index == page:
                if item.errors and not item.blocks:
                    raise RuntimeError(item.errors[0].line())
                return item.markdown
        raise RuntimeError(f"{file} page {page}: not parsed ({result.status})")


def build_eval_engines(
    names: Iterable[str], base: Options, wanted: dict[Path, set[int]]
) -> dict[str, PageEngine]:
    """Named evaluation engines over the pipeline."""
    return {name: PipelineEngine(options_for(name, base), wanted) for name in names}
