"""What cross-document page reuse saves: ``batch`` with one Ray worker on the same 40 digital
pages (copies of four documents, so 9 distinct pages) with page reuse off and on, one run
each, every run a fresh ``python -m pagereader`` process on a fresh OUT.

    .venv/bin/python bench/page_reuse.py
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from batch import batch_run_facts, corpus, run


def main() -> None:
    argparse.ArgumentParser(description=__doc__).parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-reuse-"))
    inputs = work / "in"
    inputs.mkdir()
    pages = corpus(inputs)
    rows: list[tuple[str, float, object]] = []
    for flag in ("--no-reuse-pages", "--reuse-pages"):
        out = work / flag.strip("-")
        args = ["batch", str(inputs), "-o", str(out), "--cpus", "2", "--workers", "1", flag]
        seconds = run(args)
        summary, _ = batch_run_facts(out)
        rows.append((flag, seconds, summary["reused_pages"]))
    print(f"{pages} digital pages, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    print(f"{'batch --workers 1':<30} {'wall s':>8} {'pages/s':>8} {'reused':>7}")
    for name, seconds, reused in rows:
        print(f"{name:<30} {seconds:>8.1f} {pages / seconds:>8.2f} {reused!s:>7}")
    print(f"speedup with reuse (wall): {rows[0][1] / rows[1][1]:.2f}")


if __name__ == "__main__":
    main()
