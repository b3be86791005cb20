"""Peak memory and output size of long documents: ``pagereader parse`` (the CLI, default
options, embedded engines) of plain-text PDFs made by code, 45 lines of 10-point text a page
(tests/fixtures/long_text.py), 300 and 1000 pages (1000 is ``serve``'s and MCP's default page
limit).

Each row is one command run in a fresh process under a small wrapper that reports
``ru_maxrss`` of its children: the peak resident size of the command and anything it ran.
With ``--before REV`` each row also runs the pagereader of an earlier commit (its ``src``,
extracted with ``git archive``) on the same input, in the same run. A row is a name and a
function that makes its inputs and says the command and the output file to weigh: a new
command (``diff`` of two long versions, say) is one more entry in ``ROWS``.

    .venv/bin/python bench/long_documents.py [--rows parse-300,parse-1000] [--before 5bfa43c]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from fixtures.long_text import write_text_pdf  # noqa: E402

_WRAPPER = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
sys.stderr.write(done.stderr[-2000:])
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


@dataclass(frozen=True)
class Run:
    """What a row runs: ``pagereader`` arguments, the pages read, the output file to weigh
    (None: the row writes none worth weighing)."""

    args: list[str]
    pages: int
    output: Path | None


@dataclass(frozen=True)
class Measured:
    seconds: float
    peak_gb: float
    output_bytes: int | None


def _parse(pages: int, *flags: str) -> Callable[[Path, Path], Run]:
    def make(inputs: Path, out: Path) -> Run:
        pdf = inputs / f"text-{pages}.pdf"
        if not pdf.exists():
            write_text_pdf(pdf, pages)
        args = ["parse", str(pdf), "-o", str(out), *flags]
        return Run(args, pages, out / pdf.stem / "document.json")

    return make


ROWS: dict[str, Callable[[Path, Path], Run]] = {
    "parse-300": _parse(300),
    "parse-1000": _parse(1000),
    "parse-300 --char-boxes": _parse(300, "--char-boxes"),
}
"""Row name -> (inputs folder, output folder) -> the run. The default rows are the first two."""


def measure(run: Run, src: Path | None) -> Measured | None:
    """One run of ``pagereader`` (this checkout's, or the one under ``src``); None (said on
    stderr) when it fails, as an older pagereader does on a flag it does not know."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGEREADER_")}
    if src is not None:
        env["PYTHONPATH"] = str(src)
    command = [sys.executable, "-c", _WRAPPER, sys.executable, "-m", "pagereader", *run.args]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    seconds = time.perf_counter() - started
    code, kib = done.stdout.split()[-2:]
    if code not in ("0", "1"):  # 1: a document partial; the output is still weighed
        reason = done.stderr.strip()[-600:]
        print(f"{' '.join(run.args)} failed ({code}): {reason}", file=sys.stderr)
        return None
    size = run.output.stat().st_size if run.output is not None else None
    return Measured(seconds, int(kib) * 1024 / 1e9, size)


def _src_of(rev: str, folder: Path) -> Path:
    """The ``src`` folder of commit ``rev``, extracted into ``folder``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", rev, "src"],
        capture_output=True,
        check=True,
    ).stdout
    tar = folder / "src.tar"
    tar.write_bytes(archive)
    with tarfile.open(tar) as members:
        members.extractall(folder, filter="data")
    return folder / "src"


def _cells(m: Measured | None, pages: int) -> list[str]:
    if m is None:
        return ["-", "-", "-"]
    per_page = "-" if m.output_bytes is None else f"{m.output_bytes / pages / 1e3:.1f}"
    return [f"{m.peak_gb:.2f}", per_page, f"{m.seconds:.0f}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default="parse-300,parse-1000", help=f"of {', '.join(ROWS)}")
    parser.add_argument("--before", metavar="REV", help="also run this commit's pagereader")
    args = parser.parse_args()
    names = [name.strip() for name in args.rows.split(",")]
    unknown = [name for name in names if name not in ROWS]
    if unknown:
        raise SystemExit(f"unknown rows {unknown}; known: {', '.join(ROWS)}")
    before = f" ({args.before})" if args.before else ""
    print(
        "| row | pages | peak GB | output KB a page | seconds "
        f"| before{before} peak GB | before KB a page | before seconds |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        inputs = Path(tmp) / "inputs"
        inputs.mkdir()
        old_src = _src_of(args.before, Path(tmp)) if args.before else None
        for index, name in enumerate(names):
            run = ROWS[name](inputs, Path(tmp) / f"now-{index}")
            now = measure(run, None)
            if now is None:
                raise SystemExit(f"row {name} failed")
            old = None
            if old_src is not None:
                old = measure(ROWS[name](inputs, Path(tmp) / f"before-{index}"), old_src)
            cells = [name, str(run.pages), *_cells(now, run.pages), *_cells(old, run.pages)]
            print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
