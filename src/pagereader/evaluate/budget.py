"""The timing harness: run pages, then report p50/p95/max per page class against the budget,
the dominant stage, and a plot of per-stage seconds per page."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pagereader.config.options import Options
from pagereader.pipeline import aparse, make_context
from pagereader.render.files import TIMINGS_JSON
from pagereader.sources.formats import IMAGE_SUFFIXES, OFFICE_SUFFIXES, SUPPORTED_SUFFIXES
from pagereader.timing import timings_document
from pagereader.types import PageResult


def doc_type(path: Path) -> str:
    """Deck type used for sampling: pdf, office or image."""
    suffix = path.suffix.lower()
    if suffix in OFFICE_SUFFIXES:
        return "office"
    if suffix in IMAGE_SUFFIXES:
        return "image"
    return "pdf"


def bench_files(root: Path) -> list[Path]:
    """Supported files under ``root`` (or ``root`` itself), sorted."""
    if root.is_file():
        return [root]
    return [
        p for p in sorted(root.rglob("*")) if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES
    ]


async def run_bench(
    files: Sequence[Path], options: Options, per_type: int
) -> tuple[list[PageResult], float]:
    """Parse up to ``per_type`` pages of each document type; the pages and the wall time."""
    ctx = make_context(options)
    taken: dict[str, int] = {}
    pages: list[PageResult] = []
    start = time.perf_counter()
    for path in files:
        kind = doc_type(path)
        left = per_type - taken.get(kind, 0)
        if left <= 0:
            continue
        data = options.model_dump()
        data["pages"] = tuple(range(1, left + 1))
        result = await aparse(path, ctx=ctx.with_options(Options.model_validate(data)))
        got = [p for p in result.pages if p.timings is not None and not p.errors]
        pages.extend(got)
        taken[kind] = taken.get(kind, 0) + len(got)
    return pages, time.perf_counter() - start


def budget_markdown(timings: dict[str, Any]) -> str:
    """The budget report: per page class against the budget, and the dominant stage."""
    summary = timings["summary"]
    budget = summary["budget_s"]
    lines = [
        f"# Timing against a budget of {budget:g} s per page",
        "",
        "| page class | pages | p50 s | p95 s | max s | within budget |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for cls, row in sorted(summary["by_class"].items()):
        verdict = "yes" if row["p95_s"] <= budget else "no"
        lines.append(
            f"| {cls} | {row['pages']} | {row['p50_s']:.2f} | {row['p95_s']:.2f} | "
            f"{row['max_s']:.2f} | {verdict} (p95) |"
        )
    lines += [
        f"| all | {summary['pages']} | {summary['p50_s']:.2f} | {summary['p95_s']:.2f} | "
        f"{summary['max_s']:.2f} | {summary['over_budget']} over |",
        "",
        f"Dominant stage: **{summary['dominant_stage']}**. Seconds per stage over all pages: "
        + ", ".join(f"{k} {v:.2f}" for k, v in summary["stage_seconds"].items())
        + ".",
    ]
    return "\n".join(lines) + "\n"


def plot_stages(timings: dict[str, Any], path: Path) -> None:
    """A stacked bar per page: seconds in each stage, with the budget line."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    rows = timings["pages"]
    fig, ax = plt.subplots(figsize=(max(6, len(rows) * 0.35), 4))
    bottoms = [0.0] * len(rows)
    for stage in timings["summary"]["stage_seconds"]:
        values = [r["stages"].get(stage, 0.0) for r in rows]
        ax.bar(range(len(rows)), values, bottom=bottoms, label=stage)
        bottoms = [b + v for b, v in zip(bottoms, values, strict=True)]
    ax.axhline(timings["summary"]["budget_s"], color="red", linestyle="--", label="budget")
    ax.set_xlabel("page")
    ax.set_ylabel("seconds")
    ax.set_xticks(
        range(len(rows)), [f"{r['page_class'][0]}{i}" for i, r in enumerate(rows)], fontsize=6
    )
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_bench(pages: list[PageResult], wall_s: float, budget_s: float, out: Path) -> Path:
    """timings.json, budget.md and stages.png in ``out``; returns the budget report's path."""
    out.mkdir(parents=True, exist_ok=True)
    timings = timings_document(pages, budget_s, wall_s)
    (out / TIMINGS_JSON.name).write_text(json.dumps(timings, indent=2), encoding="utf-8")
    report = out / "budget.md"
    report.write_text(budget_markdown(timings), encoding="utf-8")
    if timings["pages"]:
        plot_stages(timings, out / "stages.png")
    return report
