"""Peak resident memory of one ``pagereader parse`` on the pages made to ask for gigabytes
(tests/adversarial/raster_inputs.py), against the same parse with glibc's default heap arenas
and the whole page detected at once (the process as it was before heap.py and det_strips.py).

Each figure is ``ru_maxrss`` of the parse alone, read by a wrapper process, the median of
``--runs`` runs; the two sides run in turn. The test's bound is 1.5 GB.

    .venv/bin/python bench/peak_memory.py [--runs 2] [--config ocr.toml]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from adversarial.raster_inputs import (
    write_big_pdf,
    write_big_png,
    write_ruled_table_pdf,
)

_WRAPPER = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=540)
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""
_BEFORE = (
    "import pagereader.engines.det_strips as strips; strips.STRIP_PIXELS = 10**12; "
    "from pagereader.cli.main import app; app()"
)
CASES: dict[str, Callable[[Path], Path]] = {
    "grey png 8000 px at 50 dpi": lambda d: write_big_png(d / "scan.png", 8000, 50),
    "rgb png 8000 px at 50 dpi": lambda d: write_big_png(d / "photo.png", 8000, 50, color=True),
    "pdf page 14400 pt": lambda d: write_big_pdf(d / "wall.pdf", 14400.0),
    "pdf ruled table 5000 pt": lambda d: write_ruled_table_pdf(d / "table.pdf", 5000.0),
}


def peak_gb(entry: list[str], path: Path, out: Path, config: str | None) -> float:
    """Peak RSS in GB of one parse of ``path`` run by ``entry`` (the interpreter's arguments)."""
    command = [sys.executable, *entry, "parse", str(path), "-o", str(out), "--no-resume"]
    if config:
        command += ["--config", config]
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    done = subprocess.run(
        [sys.executable, "-c", _WRAPPER, *command],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=True,
    )
    code, kib = done.stdout.split()[-2:]
    if code != "0":
        raise SystemExit(f"parse of {path} failed ({code})")
    return int(kib) * 1024 / 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--config", help="a TOML config for both sides (e.g. the OCR backend)")
    args = parser.parse_args()
    print("| page | pagereader GB | before GB | ratio |")
    print("|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in CASES.items():
            folder = Path(tmp) / str(len(os.listdir(tmp)))
            folder.mkdir()
            path = make(folder)
            now, before = [], []
            for run in range(args.runs):
                now.append(peak_gb(["-m", "pagereader"], path, folder / f"a{run}", args.config))
                before.append(peak_gb(["-c", _BEFORE], path, folder / f"b{run}", args.config))
            a, b = statistics.median(now), statistics.median(before)
            print(f"| {name} | {a:.2f} | {b:.2f} | {a / b:.2f} |", flush=True)


if __name__ == "__main__":
    main()
