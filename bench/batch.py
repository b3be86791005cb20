"""Pages per second of ``parse --jobs 1|2`` and ``batch`` with 1 and 2 Ray workers on the same
40 digital pages, and Ray's overhead per task and per page.

Every configuration runs as its own ``python -m pagereader`` process (model loading and, for
batch, starting and stopping a local Ray are part of its wall time), ``--repeat`` times in
turn (3 by default); each measure keeps its best run, as timeit does, since a shared machine
only ever slows a run down. Batch scaling is compared three ways, all from the same runs:

- wall: the whole command, local Ray's start (about 3 s) and stop (about 1.5 s) included;
- in the run: the batch's own pages per second, from the run's start (Ray up) to its end;
- steady: the batch's steady pages per second, from the first document started to the last
  one done (workers up, their models loaded): the rate a long corpus runs at.

The same parser in plain processes without Ray (one CPU each, taking the next document when
free) gives the machine's own scaling, measured in the same run: the ceiling for Ray's.
Ray's overhead is measured two ways: the steady span's seconds beyond the sum of the seconds
the actor spent inside documents (1 worker, so nothing overlaps), and the round trip of an
empty actor call.

    .venv/bin/python bench/batch.py [--repeat N]
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pagereader.config.options import Options

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


_PEER: object = None  # the DocumentWorker of a plain process, made by _peer_start


def _peer_start(options: Options, out: str) -> None:
    global _PEER
    from pagereader.batch.storage import Destination
    from pagereader.batch.worker import DocumentWorker

    _PEER = DocumentWorker(options, Destination(out))


def _peer_parse(path: str) -> tuple[float, float]:
    from pagereader.batch.inputs import InputItem
    from pagereader.batch.worker import DocumentWorker

    assert isinstance(_PEER, DocumentWorker)
    started = time.time()
    _PEER.parse_document(InputItem(path), Path(path).stem, 0)
    return started, time.time()


def plain_processes_span(inputs: Path, out: Path, processes: int) -> float:
    """The steady span (first document started to last one done) of ``processes`` plain
    processes without Ray, each holding the batch actor's parser (one CPU each) and taking the
    next document when it is free: the machine's own scaling, the ceiling for Ray's."""
    import multiprocessing

    from pagereader.batch.worker import actor_options
    from pagereader.config.options import Options

    options = actor_options(Options(), 1.0)
    paths = [str(p) for p in sorted(inputs.iterdir())]
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes, _peer_start, (options, str(out))) as pool:
        times = list(pool.imap_unordered(_peer_parse, paths, chunksize=1))
    return max(end for _, end in times) - min(start for start, _ in times)


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


@dataclass
class Row:
    """One configuration's runs: each measure's best."""

    name: str
    wall: list[float] = field(default_factory=list)
    in_run: list[float] = field(default_factory=list)  # pages/s, batch only
    steady: list[float] = field(default_factory=list)  # pages/s, batch only

    def rate(self, pages: int) -> float:
        return pages / min(self.wall)


def _batch_args(inputs: Path, out: Path, workers: int) -> list[str]:
    return [
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


def _parse_args(inputs: Path, out: Path, jobs: int) -> list[str]:
    flags = ["--no-resume", "--no-reuse-pages", "--jobs", str(jobs)]
    return ["parse", str(inputs), "-o", str(out), *flags]


def main() -> None:
    os.environ["OMP_THREAD_LIMIT"] = "1"  # as for the commands, in the plain processes too
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each configuration")
    repeat = parser.parse_args().repeat
    work, inputs, pages = corpus_folder("bench-batch-")
    documents = len(list(inputs.iterdir()))
    rows = [Row(f"parse --jobs {n}") for n in (1, 2)]
    rows += [Row(f"batch --workers {n}") for n in (1, 2)]
    facts: dict[int, list[tuple[float, float, float]]] = {1: [], 2: []}  # span, inside, run
    plain: dict[int, list[float]] = {1: [], 2: []}  # steady spans without Ray
    tasks = 0
    for attempt in range(repeat):
        for jobs in (1, 2):
            out = work / f"p{jobs}-{attempt}"
            rows[jobs - 1].wall.append(run(_parse_args(inputs, out, jobs)))
            shutil.rmtree(out, ignore_errors=True)
        for workers in (1, 2):
            out = work / f"b{workers}-{attempt}"
            row = rows[1 + workers]
            row.wall.append(run(_batch_args(inputs, out, workers)))
            summary, inside, span = batch_run_facts(out)
            row.in_run.append(float(summary["pages_per_second"]))  # type: ignore[arg-type]
            row.steady.append(float(summary["steady_pages_per_second"]))  # type: ignore[arg-type]
            facts[workers].append((span, inside, float(summary["seconds"])))  # type: ignore[arg-type]
            tasks = int(summary["tasks"])  # type: ignore[call-overload]
            shutil.rmtree(out, ignore_errors=True)
        for processes in (1, 2):
            out = work / f"plain{processes}-{attempt}"
            plain[processes].append(plain_processes_span(inputs, out, processes))
            shutil.rmtree(out, ignore_errors=True)
    ping = empty_call_seconds()

    print(
        f"{documents} documents, {pages} digital pages, {os.cpu_count()} CPUs, best of"
        f" {repeat} runs each, load average {os.getloadavg()[0]:.1f} at the end"
    )
    print(
        f"{'configuration':<20} {'wall s':>7} {'pages/s':>8} {'in run':>7} {'steady':>7}"
        f" {'vs parse -j1':>13}"
    )
    base = rows[0].rate(pages)
    for row in rows:
        in_run = f"{max(row.in_run):>7.2f}" if row.in_run else f"{'-':>7}"
        steady = f"{max(row.steady):>7.2f}" if row.steady else f"{'-':>7}"
        print(
            f"{row.name:<20} {min(row.wall):>7.1f} {row.rate(pages):>8.2f} {in_run} {steady}"
            f" {row.rate(pages) / base:>13.2f}"
        )
    one, two = rows[2], rows[3]
    print("batch 2 workers / 1 worker (best against best; each run in turn):")
    measures = (
        ("wall", [pages / w for w in one.wall], [pages / w for w in two.wall]),
        ("in the run", one.in_run, two.in_run),
        ("steady", one.steady, two.steady),
    )
    for label, a, b in measures:
        each = ", ".join(f"{y / x:.2f}" for x, y in zip(a, b, strict=True))
        print(f"  {label:<11} {max(b) / max(a):.2f}  ({each})")
    each = ", ".join(f"{x / y:.2f}" for x, y in zip(plain[1], plain[2], strict=True))
    print(
        f"  {'no Ray':<11} {min(plain[1]) / min(plain[2]):.2f}  ({each}): steady, 2 plain"
        " processes against 1, each with the actor's parser on one CPU (the machine's own"
        f" scaling; spans {min(plain[1]):.2f} s and {min(plain[2]):.2f} s)"
    )
    span, inside, run_s = min(facts[1])
    digital_page_s = min(rows[0].wall) / pages
    between = max(0.0, span - inside)
    print(
        f"1-worker run (fastest): {tasks} tasks over a steady span of {span:.2f} s with"
        f" {inside:.2f} s inside documents, {run_s - span:.1f} s of the run"
        " before and after them (the workers' start and model load, the end)"
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
