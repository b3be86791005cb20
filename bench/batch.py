"""Pages per second of ``parse --jobs 1|2`` and ``batch`` with 1 and 2 Ray workers on the same
40 digital pages, one run each, and Ray's overhead per task and per page.

Every configuration runs as its own ``python -m pagereader`` process (model loading and, for
batch, starting a local Ray are part of its wall time). Scaling is compared three ways: wall
time, time inside the run (Ray's start excluded), and the steady span from the first document
started to the last one done (actors up and their models loaded: the rate a long corpus runs
at). Ray's overhead is measured two ways: the span's seconds beyond the sum of the seconds the
actor spent inside documents (1 worker, so nothing overlaps), and the round trip of an empty
actor call. The actors' start and model loading before the first document are shown apart.

    .venv/bin/python bench/batch.py
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from fixtures import build_fixtures  # noqa: E402

GENERATED = ROOT / "tests" / "fixtures" / "_generated"


def corpus(folder: Path) -> int:
    """40 digital pages: 5 copies of the 4-page deck, 4 of the 3-page legal text, 4 each of
    the two-column page and the table page. Returns the page count."""
    fx = build_fixtures(GENERATED)
    counts = {fx.deck_pdf: (5, 4), fx.legal_pdf: (4, 3), fx.two_column_pdf: (4, 1)}
    counts[fx.table_pdf] = (4, 1)
    pages = 0
    for path, (copies, per_doc) in counts.items():
        for copy in range(copies):
            shutil.copy(path, folder / f"{path.stem}-{copy}{path.suffix}")
            pages += per_doc
    return pages


def corpus_folder(prefix: str) -> tuple[Path, Path, int]:
    """A fresh work folder, its ``in`` folder holding the corpus, and the corpus's pages."""
    work = Path(tempfile.mkdtemp(prefix=prefix))
    inputs = work / "in"
    inputs.mkdir()
    return work, inputs, corpus(inputs)


def run(args: list[str]) -> float:
    env = {**os.environ, "OMP_THREAD_LIMIT": "1", "PYTHONPATH": str(ROOT / "src")}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pagereader", *args], env=env, capture_output=True, text=True
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{args[0]} failed:\n{done.stderr[-2000:]}")
    return seconds


def batch_run_facts(out: Path) -> tuple[dict[str, object], float, float]:
    """The run's summary, the seconds its documents took inside the actors, and the steady
    span: from the first document's start (actors up) to the last one recorded."""
    with sqlite3.connect(out / "_batch" / "manifest.sqlite") as db:
        summary = json.loads(db.execute("SELECT summary FROM runs").fetchone()[0])
        inside = float(db.execute("SELECT SUM(seconds) FROM documents").fetchone()[0])
        first, last = db.execute(
            "SELECT MIN(updated - seconds), MAX(updated) FROM documents"
        ).fetchone()
        span = float(last) - float(first)
    return summary, inside, span


def empty_call_seconds(calls: int = 200) -> float:
    """Round trip of an empty actor call on a local Ray."""
    import ray

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)

    @ray.remote
    class Echo:
        def ping(self, value: int) -> int:
            return value

    echo = Echo.remote()  # type: ignore[attr-defined]
    ray.get(echo.ping.remote(0))
    started = time.perf_counter()
    for i in range(calls):
        ray.get(echo.ping.remote(i))
    seconds = (time.perf_counter() - started) / calls
    ray.shutdown()
    return seconds


def main() -> None:
    argparse.ArgumentParser(description=__doc__).parse_args()
    work, inputs, pages = corpus_folder("bench-batch-")
    documents = len(list(inputs.iterdir()))
    rows: list[tuple[str, float, float]] = []
    for jobs in (1, 2):
        seconds = run(
            [
                "parse",
                str(inputs),
                "-o",
                str(work / f"p{jobs}"),
                "--no-resume",
                "--no-reuse-pages",
                "--jobs",
                str(jobs),
            ]
        )
        rows.append((f"parse --jobs {jobs}", seconds, pages / seconds))
    facts = {}
    for workers in (1, 2):
        out = work / f"b{workers}"
        seconds = run(
            [
                "batch",
                str(inputs),
                "-o",
                str(out),
                "--cpus",
                "2",
                "--workers",
                str(workers),
                "--no-resume",
                "--no-reuse-pages",
            ]
        )
        rows.append((f"batch --workers {workers}", seconds, pages / seconds))
        facts[workers] = batch_run_facts(out)
    ping = empty_call_seconds()

    print(
        f"{documents} documents, {pages} digital pages, {os.cpu_count()} CPUs,"
        f" load average {os.getloadavg()[0]:.1f} at the end"
    )
    print(f"{'configuration':<20} {'wall s':>8} {'pages/s':>8} {'vs parse -j1':>13}")
    for name, seconds, rate in rows:
        print(f"{name:<20} {seconds:>8.1f} {rate:>8.2f} {rate / rows[0][2]:>13.2f}")
    one, two = rows[2][2], rows[3][2]
    print(f"batch 2 workers / 1 worker (wall): {two / one:.2f}")
    summary, inside, span_one = facts[1]
    span_two = facts[2][2]
    print(
        f"batch 2 workers / 1 worker (steady: first document started to last done,"
        f" {span_one:.1f} s and {span_two:.1f} s): {span_one / span_two:.2f}"
    )
    run_s, tasks = float(summary["seconds"]), int(summary["tasks"])  # type: ignore[arg-type,call-overload]
    two_rate = float(facts[2][0]["pages_per_second"])  # type: ignore[arg-type]
    one_rate = float(summary["pages_per_second"])  # type: ignore[arg-type]
    print(
        f"batch 2 workers / 1 worker (inside the run, Ray start excluded):"
        f" {two_rate / one_rate:.2f}"
    )
    digital_page_s = rows[0][1] / pages
    between = max(0.0, span_one - inside)
    print(
        f"1-worker run: {run_s:.1f} s: actor start and model load {run_s - span_one:.1f} s"
        f" before the first document, then {tasks} tasks over {span_one:.2f} s with"
        f" {inside:.2f} s inside documents"
    )
    print(
        f"Ray's overhead between documents: {between / tasks:.4f} s a task,"
        f" {between / pages:.4f} s a page = {100 * between / pages / digital_page_s:.2f}%"
        f" of a digital page ({digital_page_s:.2f} s with parse --jobs 1)"
    )
    print(
        f"empty actor call: {ping * 1000:.2f} ms; per page at"
        f" {tasks / pages:.2f} tasks a page: {ping * tasks / pages * 1000:.2f} ms ="
        f" {100 * ping * tasks / pages / digital_page_s:.2f}% of a digital page"
        f" ({digital_page_s:.2f} s with parse --jobs 1)"
    )
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
