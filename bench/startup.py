"""Start-up as a user pays it: ``pagereader parse`` of a 2-page digital statute and
``pagereader --help``, each a fresh process, beside ``pdftotext`` on the same file.

Runs are paired (pagereader, then pdftotext, in turn) so a drift of the machine's speed moves
both sides; each figure is the median of the runs. Wall is seconds from start to exit; CPU is
user + system of the process and everything it waited for (RUSAGE_CHILDREN). Python may write
its bytecode (PYTHONDONTWRITEBYTECODE is dropped), as an installed package has it. Goals: parse
under 0.6 s wall, ``--help`` under 0.5 s.

    .venv/bin/python bench/startup.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEGAL = ROOT.parent / "shared" / "eval" / "real_legal"
FILES = ("B0000001.pdf", "N0030001.pdf")
PARSE_GOAL_S = 0.6
HELP_GOAL_S = 0.5
"""A Korean and a Traditional Chinese statute, two digital pages each."""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of ``command``; a failed run stops the bench."""
    before, start = _children_cpu(), time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - start, _children_cpu() - before
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr.strip()[-400:]}")
    return wall, cpu


def paired(
    runs: int, ours: Callable[[], list[str]], peer: Callable[[], list[str]]
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """``runs`` pairs, one warm-up pair first (not counted: it fills the file cache)."""
    timed(ours())
    timed(peer())
    mine: list[tuple[float, float]] = []
    theirs: list[tuple[float, float]] = []
    for _ in range(runs):
        mine.append(timed(ours()))
        theirs.append(timed(peer()))
    return mine, theirs


def _median(values: list[tuple[float, float]], at: int) -> float:
    return statistics.median(v[at] for v in values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    if shutil.which("pdftotext") is None:
        raise SystemExit("pdftotext is missing (poppler-utils)")
    env_python = [sys.executable, "-m", "pagereader"]
    os.environ["PYTHONPATH"] = str(ROOT / "src")
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    print(f"medians of {args.runs} paired runs\n")
    print("| command | wall s | CPU s | pdftotext wall s | goal |")
    print("| --- | ---: | ---: | ---: | --- |")
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as scratch:
        out = Path(scratch)
        for name in FILES:
            pdf = LEGAL / name
            if not pdf.is_file():
                raise SystemExit(f"missing {pdf}: the shared evaluation data is needed")

            def ours(pdf: Path = pdf) -> list[str]:
                shutil.rmtree(out / "parse", ignore_errors=True)
                return [*env_python, "parse", str(pdf), "-o", str(out / "parse")]

            def peer(pdf: Path = pdf) -> list[str]:
                return ["pdftotext", str(pdf), str(out / "peer.txt")]

            mine, theirs = paired(args.runs, ours, peer)
            wall, peer_wall = _median(mine, 0), _median(theirs, 0)
            verdict = "met" if wall < PARSE_GOAL_S else "NOT met"
            print(
                f"| `pagereader parse {name}` (2 digital pages) | {wall:.2f} | "
                f"{_median(mine, 1):.2f} | {peer_wall:.3f} | < {PARSE_GOAL_S} s: {verdict} |"
            )
        timed([*env_python, "--help"])
        helps = [timed([*env_python, "--help"]) for _ in range(args.runs)]
        wall = _median(helps, 0)
        verdict = "met" if wall < HELP_GOAL_S else "NOT met"
        print(
            f"| `pagereader --help` | {wall:.2f} | {_median(helps, 1):.2f} | "
            f"| < {HELP_GOAL_S} s: {verdict} |"
        )


if __name__ == "__main__":
    main()
