"""Where a scanned page's CPU seconds go: each model and step of pagereader's scan path.

Every scanned page of ../shared/eval/real_legal is parsed in process (models loaded before
timing, one page at a time), with the scan path's steps wrapped to add up the CPU seconds
(user + system of this process and of the Tesseract processes it waits for) spent inside each:
PP-OCR detection, PP-OCR recognition of the page's lines, of the orientation sample and of the
Korean clause numbers, Tesseract on the Korean line strips and on the orientation sample, the
layout model, the decision layer's measures, line cropping. A step's time excludes the wrapped
steps inside it. The layout stage normally runs the layout model beside the reading of the
lines; here it runs after it, so that the process's CPU seconds split between the two (the sum
is the same work). Printed per language: CPU seconds a page of each step, the rest of the
pipeline, the total, and Tesseract's own CPU seconds on the same rasters (``--psm 3``,
``OMP_THREAD_LIMIT=1``) for scale.

    .venv/bin/python bench/cpu_by_stage.py
"""

from __future__ import annotations

import asyncio
import functools
import resource
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import Future
from types import FrameType, ModuleType, TracebackType
from typing import Any, TypeVar

from embedded import EVAL, TESS_LANG, Case, real_legal

import pagereader.engines.rapidocr as rapidocr
import pagereader.engines.tesseract as tesseract
import pagereader.layout.detector as detector
import pagereader.stages.classify as classify
import pagereader.stages.layout as layout
from pagereader.engines.tesseract import tesseract_text
from pagereader.evalset_manifest import guess_lang
from pagereader.pipeline import make_context, parse_page
from pagereader.runtime import Runtime
from pagereader.sources import open_source

F = TypeVar("F", bound=Callable[..., Any])
SPENT: defaultdict[str, float] = defaultdict(float)
_INSIDE: list[str] = []


def _cpu() -> float:
    mine, children = (
        resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


def counted(name: str, function: F) -> F:
    """``function``, its CPU seconds added to ``SPENT[name]`` (less those of counted calls
    inside it)."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        before = _cpu()
        _INSIDE.append(name)
        try:
            return function(*args, **kwargs)
        finally:
            spent = _cpu() - before
            _INSIDE.pop()
            SPENT[name] += spent
            if _INSIDE:
                SPENT[_INSIDE[-1]] -= spent

    return wrapper  # type: ignore[return-value]


class InOrder:
    """A stand-in for the layout stage's one-worker pool that runs each task at once."""

    def __init__(self, max_workers: int = 1) -> None:
        del max_workers

    def __enter__(self) -> InOrder:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None

    def submit(self, function: Callable[..., Any], *args: Any) -> Future[Any]:
        done: Future[Any] = Future()
        done.set_result(function(*args))
        return done


def _count(name: str, function: Callable[..., Any], users: list[ModuleType]) -> None:
    """Each of ``users`` calls ``function`` (by its own name) counted as ``name``."""
    wrapped = counted(name, function)
    for module in users:
        setattr(module, function.__name__, wrapped)


def _stage_caller() -> tuple[str, str]:
    """The nearest stage (module, function) up the stack: who asked an engine adapter."""
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        module = str(frame.f_globals.get("__name__", ""))
        if module.startswith("pagereader.stages."):
            return module.removeprefix("pagereader.stages."), frame.f_code.co_name
        frame = frame.f_back
    return "", ""


def _count_by_caller(
    names: Callable[[str, str], str], function: Callable[..., Any], module: ModuleType
) -> None:
    """``function``, called inside its own ``module`` (the engines' line adapters call it
    there), counted under the name ``names(stage module, stage function)`` gives its caller."""
    counters: dict[str, Callable[..., Any]] = {}

    @functools.wraps(function)
    def dispatch(*args: Any, **kwargs: Any) -> Any:
        name = names(*_stage_caller())
        if name not in counters:
            counters[name] = counted(name, function)
        return counters[name](*args, **kwargs)

    setattr(module, function.__name__, dispatch)


def _recognition(stage: str, caller: str) -> str:
    if stage == "script":
        return "PP-OCR recognition: orientation sample"
    if caller == "restore_circled_numbers":
        return "PP-OCR recognition: Korean clause numbers"
    return "PP-OCR recognition: the page's lines"


def _strips(stage: str, caller: str) -> str:
    del caller
    if stage == "script":
        return "Tesseract: orientation sample"
    return "Tesseract: Korean line strips"


def instrument() -> None:
    """Count the scan path's steps (see the module's docstring). The stages reach PP-OCR and
    Tesseract through the engines' line adapters, so each step is counted where the adapter
    calls it and named by the stage that asked."""
    pool = "ThreadPoolExecutor"
    setattr(layout, pool, InOrder)
    _count("PP-OCR detection", rapidocr.detect, [rapidocr])
    _count("line crops", rapidocr.crop_quads, [rapidocr])
    _count_by_caller(_recognition, rapidocr.recognize_crops, rapidocr)
    _count_by_caller(_strips, tesseract.read_line_strip, tesseract)
    _count("layout model", detector.detect_regions, [layout])
    _count("decision layer's measures", classify.classify_page, [classify])


async def measure(ctx: Runtime, case: Case) -> tuple[dict[str, float], float, float]:
    """(CPU seconds by step, pagereader's total, Tesseract's) for one page."""
    source = open_source(
        case.file, password=None, max_image_pixels=ctx.options.render.max_image_pixels
    )
    try:
        SPENT.clear()
        before = _cpu()
        await parse_page(ctx, source, case.page)
        total = _cpu() - before
        steps = dict(SPENT)
        raster = source.render(case.page, ctx.options.render.dpi)
    finally:
        source.close()
    before = _cpu()
    tesseract_text(raster.image, TESS_LANG[guess_lang(case.reference)], psm=3)
    return steps, total, _cpu() - before


async def run() -> None:
    instrument()
    ctx = make_context()
    cases = [case for case in real_legal(EVAL / "real_legal") if case.kind != "digital"]
    if not cases:
        raise SystemExit(f"no pages found under {EVAL}")
    await measure(ctx, cases[0])  # load the models before anything is counted
    by_lang: dict[str, list[tuple[dict[str, float], float, float]]] = defaultdict(list)
    for case in cases:
        by_lang[guess_lang(case.reference)].append(await measure(ctx, case))
    names = list(dict.fromkeys(name for rows in by_lang.values() for r in rows for name in r[0]))
    langs = list(by_lang)
    print("| CPU s a scanned page | " + " | ".join(langs) + " |")
    print("|---|" + "---:|" * len(langs))
    for name in sorted(
        names, key=lambda n: -sum(r[0].get(n, 0.0) for v in by_lang.values() for r in v)
    ):
        cells = [
            f"{statistics.mean(r[0].get(name, 0.0) for r in by_lang[lang]):.2f}" for lang in langs
        ]
        print(f"| {name} | " + " | ".join(cells) + " |")
    rest = [
        f"{statistics.mean(r[1] - sum(r[0].values()) for r in by_lang[lang]):.2f}" for lang in langs
    ]
    print("| the rest (rendering, regions, verify, assemble, Python) | " + " | ".join(rest) + " |")
    totals = [f"**{statistics.mean(r[1] for r in by_lang[lang]):.2f}**" for lang in langs]
    print("| **pagereader, all** | " + " | ".join(totals) + " |")
    tess = [f"{statistics.mean(r[2] for r in by_lang[lang]):.2f}" for lang in langs]
    print("| Tesseract, the whole page (psm 3) | " + " | ".join(tess) + " |")
    pages = [str(len(by_lang[lang])) for lang in langs]
    print("| pages | " + " | ".join(pages) + " |")


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
