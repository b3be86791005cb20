"""The evaluation report: its rows, the summary with bootstrap intervals, and its files.

``write_report`` writes report.json (rows, rule results, summary, worst pages), report.md
(the comparison tables) and report.html (the same tables and two plots, drawn with
matplotlib's Agg backend, saved as PNG and inlined as SVG).
"""

from __future__ import annotations

import html
import io
import json
import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
from pydantic import BaseModel, ConfigDict

logger = logging.getLogger(__name__)

TEXT_METRICS: tuple[str, ...] = ("char_consistency", "cer", "wer", "critical_ok", "teds")
_LOWER_IS_BETTER = frozenset({"cer", "wer", "seconds"})


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PageRow(_Row):
    """One engine on one page: the text metrics (``None`` where they do not apply)."""

    engine: str
    dataset: str
    file: str
    page: int
    lang: str
    char_consistency: float | None = None
    cer: float | None = None
    wer: float | None = None
    critical_ok: bool | None = None
    critical_score: float | None = None
    critical_changes: tuple[str, ...] = ()
    teds: float | None = None
    rules_passed: int = 0
    rules_total: int = 0
    seconds: float = 0.0
    error: str = ""


class RuleRow(_Row):
    """One olmOCR-bench rule judged on one engine's page."""

    engine: str
    dataset: str
    file: str
    page: int
    id: str
    type: str
    passed: bool
    reason: str = ""


class SummaryRow(_Row):
    """A metric's mean over pages (or rules) of one engine and dataset, with a 95% interval."""

    engine: str
    dataset: str
    metric: str
    mean: float
    low: float
    high: float
    n: int


class WorstPage(_Row):
    """A page with low character consistency and a short diff of what went wrong."""

    engine: str
    dataset: str
    file: str
    page: int
    char_consistency: float
    cer: float
    critical_changes: tuple[str, ...] = ()
    diff: str


class EvalReport(_Row):
    """Everything one evaluation run measured."""

    created: str
    engines: tuple[str, ...]
    datasets: tuple[str, ...]
    rows: tuple[PageRow, ...]
    rule_rows: tuple[RuleRow, ...] = ()
    summary: tuple[SummaryRow, ...] = ()
    worst: tuple[WorstPage, ...] = ()
    reference_engine: str | None = None
    """The engine whose reading every page was scored against; ``None``: ground truth."""

    def reference_line(self) -> str:
        """What the scores are measured against, in words (empty for ground truth)."""
        if self.reference_engine is None:
            return ""
        return (
            f"Reference: engine {self.reference_engine}'s reading of each page, not ground "
            "truth; the scores measure agreement with it, not accuracy."
        )


def bootstrap_ci(
    values: Sequence[float], *, n_boot: int = 2000, seed: int = 0, level: float = 0.95
) -> tuple[float, float, float]:
    """Mean and percentile-bootstrap interval: resample the values with replacement
    ``n_boot`` times and take the ``(1-level)/2`` and ``(1+level)/2`` quantiles of the means."""
    data = np.asarray(values, dtype=float)
    if data.size == 0:
        return (float("nan"), float("nan"), float("nan"))
    mean = float(data.mean())
    if data.size == 1:
        return (mean, mean, mean)
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, data.size, size=(n_boot, data.size))].mean(axis=1)
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(means, [tail, 1.0 - tail])
    return (mean, float(low), float(high))


def summarize(
    rows: Iterable[PageRow], rule_rows: Iterable[RuleRow], *, n_boot: int = 2000, seed: int = 0
) -> list[SummaryRow]:
    """Engine x dataset x metric means with bootstrap intervals.

    Text metrics are averaged over the pages where they apply (``critical_ok`` as the share of
    pages whose critical tokens agree); rules give ``pass:<type>`` per test type and
    ``pass:all``; ``seconds`` is per page.
    """
    samples: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    for row in rows:
        key = (row.engine, row.dataset)
        for metric in TEXT_METRICS:
            value = getattr(row, metric)
            if value is not None:
                samples[(*key, metric)].append(float(value))
        samples[(*key, "seconds")].append(row.seconds)
    for rule in rule_rows:
        for metric in (f"pass:{rule.type}", "pass:all"):
            samples[(rule.engine, rule.dataset, metric)].append(float(rule.passed))
    out: list[SummaryRow] = []
    for (engine, dataset, metric), values in sorted(samples.items()):
        mean, low, high = bootstrap_ci(values, n_boot=n_boot, seed=seed)
        out.append(
            SummaryRow(
                engine=engine,
                dataset=dataset,
                metric=metric,
                mean=mean,
                low=low,
                high=high,
                n=len(values),
            )
        )
    return out


def _cell(row: SummaryRow | None, percent: bool) -> str:
    if row is None:
        return "-"
    if percent:
        return f"{row.mean:.1%} [{row.low:.1%}, {row.high:.1%}]"
    return f"{row.mean:.3f} [{row.low:.3f}, {row.high:.3f}]"


def comparison_tables(report: EvalReport) -> list[tuple[str, list[str], list[list[str]]]]:
    """The report's tables as (title, header, rows): text metrics, then rule pass rates."""
    index = {(s.engine, s.dataset, s.metric): s for s in report.summary}
    tables: list[tuple[str, list[str], list[list[str]]]] = []
    text_metrics = [
        m for m in (*TEXT_METRICS, "seconds") if any(s.metric == m for s in report.summary)
    ]
    pairs = sorted(
        {(s.dataset, s.engine) for s in report.summary if s.metric == "char_consistency"}
    )
    if pairs:
        header = ["dataset", "engine", "pages", *text_metrics]
        body = [
            [dataset, engine, str(index[(engine, dataset, "char_consistency")].n)]
            + [_cell(index.get((engine, dataset, m)), m == "critical_ok") for m in text_metrics]
            for dataset, engine in pairs
        ]
        tables.append(("Text metrics (mean [95% bootstrap interval])", header, body))
    rule_metrics = sorted(
        {s.metric for s in report.summary if s.metric.startswith("pass:")},
        key=lambda m: (m == "pass:all", m),
    )
    pairs = sorted({(s.dataset, s.engine) for s in report.summary if s.metric == "pass:all"})
    if pairs:
        header = ["dataset", "engine", "tests", *(m.removeprefix("pass:") for m in rule_metrics)]
        body = [
            [dataset, engine, str(index[(engine, dataset, "pass:all")].n)]
            + [_cell(index.get((engine, dataset, m)), True) for m in rule_metrics]
            for dataset, engine in pairs
        ]
        tables.append(("olmOCR-bench pass rate per test type", header, body))
    return tables


def _md_table(header: list[str], body: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines.extend("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in body)
    return "\n".join(lines)


def render_markdown(report: EvalReport) -> str:
    """report.md: the comparison tables and the worst pages with their diffs."""
    parts = [
        f"# Evaluation report\n\nCreated {report.created}; engines: "
        f"{', '.join(report.engines)}; datasets: {', '.join(report.datasets)}.\n"
    ]
    if report.reference_engine is not None:
        parts.append(f"{report.reference_line()}\n")
    for title, header, body in comparison_tables(report):
        parts.append(f"## {title}\n\n{_md_table(header, body)}\n")
    if report.worst:
        parts.append("## Worst pages\n")
        for w in report.worst:
            shown = ", ".join(w.critical_changes[:12])
            more = f" (+{len(w.critical_changes) - 12})" if len(w.critical_changes) > 12 else ""
            changes = f"; critical: {shown}{more}" if w.critical_changes else ""
            diff = w.diff.replace("\n", "\n  ")
            parts.append(
                f"- {w.engine} / {w.dataset} / {w.file} p{w.page}: consistency "
                f"{w.char_consistency:.3f}, CER {w.cer:.3f}{changes}\n\n"
                f"  ```\n  {diff}\n  ```\n"
            )
    return "\n".join(parts)


def _figures(report: EvalReport) -> dict[str, object]:
    """Accuracy per engine (consistency or pass rate) and seconds per page per engine."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    figures: dict[str, object] = {}
    accuracy = [s for s in report.summary if s.metric in ("char_consistency", "pass:all")]
    if accuracy:
        fig, ax = plt.subplots(figsize=(7, 0.45 * len(accuracy) + 1.2))
        labels = [f"{s.engine} / {s.dataset}" for s in accuracy]
        means = np.array([s.mean for s in accuracy])
        errors = np.array([[s.mean - s.low for s in accuracy], [s.high - s.mean for s in accuracy]])
        ax.barh(labels, means, xerr=errors, color="#4C72B0", capsize=3)
        ax.set_xlim(0, 1)
        ax.set_xlabel("character consistency / olmOCR pass rate (95% interval)")
        ax.invert_yaxis()
        fig.tight_layout()
        figures["accuracy"] = fig
    seconds: dict[str, list[float]] = defaultdict(list)
    for row in report.rows:
        seconds[row.engine].append(row.seconds)
    if seconds:
        fig, ax = plt.subplots(figsize=(7, 3.5))
        names = sorted(seconds)
        ax.boxplot([seconds[n] for n in names])
        ax.set_xticks(range(1, len(names) + 1), names)
        ax.set_ylabel("seconds per page")
        fig.tight_layout()
        figures["seconds"] = fig
    return figures


def render_html(report: EvalReport, svgs: dict[str, str]) -> str:
    """report.html: tables, inline SVG plots and the worst pages."""
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>pagereader evaluation"
        "</title><style>body{font-family:sans-serif;margin:2em}table{border-collapse:"
        "collapse}td,th{border:1px solid #ccc;padding:3px 8px}pre{background:#f6f6f6;"
        "padding:6px;white-space:pre-wrap}</style></head><body>",
        f"<h1>Evaluation report</h1><p>Created {html.escape(report.created)}</p>",
    ]
    if report.reference_engine is not None:
        parts.append(f"<p><strong>{html.escape(report.reference_line())}</strong></p>")
    for title, header, body in comparison_tables(report):
        head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
        rows = "".join(
            "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in body
        )
        parts.append(f"<h2>{html.escape(title)}</h2><table><tr>{head}</tr>{rows}</table>")
    for name, svg in svgs.items():
        parts.append(f"<h2>{html.escape(name)}</h2>{svg}")
    if report.worst:
        parts.append("<h2>Worst pages</h2>")
        for w in report.worst:
            parts.append(
                f"<h3>{html.escape(f'{w.engine} / {w.file} p{w.page}')}</h3><p>"
                f"consistency {w.char_consistency:.3f}, CER {w.cer:.3f}</p>"
                f"<pre>{html.escape(w.diff)}</pre>"
            )
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(report: EvalReport, out_dir: Path) -> dict[str, Path]:
    """Write report.json, report.md, report.html and the plots' PNGs; return their paths."""
    from matplotlib import pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": out_dir / "report.json",
        "md": out_dir / "report.md",
        "html": out_dir / "report.html",
    }
    # a report against ground truth keeps the fields it always had
    unset = {"reference_engine"} if report.reference_engine is None else None
    data = report.model_dump(mode="json", exclude=unset)
    if report.reference_engine is not None:
        data["reference"] = report.reference_line()
    paths["json"].write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    paths["md"].write_text(render_markdown(report), encoding="utf-8")
    svgs: dict[str, str] = {}
    for name, fig in _figures(report).items():
        png = out_dir / f"{name}.png"
        fig.savefig(png, dpi=110)  # type: ignore[attr-defined]
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg")  # type: ignore[attr-defined]
        svg = buffer.getvalue()
        svgs[name] = svg[svg.find("<svg") :]
        paths[name] = png
        plt.close(fig)  # type: ignore[arg-type]
    paths["html"].write_text(render_html(report, svgs), encoding="utf-8")
    logger.info("wrote evaluation report to %s", out_dir)
    return paths
