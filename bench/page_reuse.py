"""What cross-document page reuse saves: ``batch`` with one Ray worker on the same 40 digital
pages (copies of four documents, so 9 distinct pages) with page reuse off and on, one run
each, every run a fresh ``python -m pagereader`` process on a fresh OUT. Prints wall seconds
and the seconds the worker spent inside documents (from the run manifest).

    .venv/bin/python bench/page_reuse.py
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from batch import batch_run_facts, corpus_folder, run


def main() -> None:
    argparse.ArgumentParser(description=__doc__).parse_args()
    work, inputs, pages = corpus_folder("bench-reuse-")
    rows: list[tuple[str, float, float, object]] = []
    for flag in ("--no-reuse-pages", "--reuse-pages"):
        out = work / flag.strip("-")
        args = ["batch", str(inputs), "-o", str(out), "--cpus", "2", "--workers", "1", flag]
        seconds = run(args)
        summary, inside, _span = batch_run_facts(out)
        rows.append((flag, seconds, inside, summary["reused_pages"]))
    print(f"{pages} digital pages, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    header = f"{'batch --workers 1':<20} {'wall s':>7} {'pages/s':>8}"
    print(f"{header} {'in documents s':>15} {'reused':>7}")
    for name, seconds, inside, reused in rows:
        print(f"{name:<20} {seconds:>7.1f} {pages / seconds:>8.2f} {inside:>15.1f} {reused!s:>7}")
    print(
        f"with reuse / without: wall {rows[0][1] / rows[1][1]:.2f}x,"
        f" inside documents {rows[0][2] / rows[1][2]:.2f}x"
        " (wall includes starting Ray and loading the models)"
    )


if __name__ == "__main__":
    main()
