"""Peak memory of one page stays under 1.5 GB for inputs made to ask for gigabytes.

Each input is parsed by the real CLI in a child of a small wrapper process; the wrapper reports
``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss``, the peak resident size of the parse alone
(and of anything it ran), whatever else the test process has run before.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adversarial.raster_inputs import (
    write_big_pdf,
    write_big_png,
    write_ruled_table_pdf,
    write_scan_of,
)

pytestmark = pytest.mark.slow  # seconds of real engines, servers or processes

PEAK_BOUND_BYTES = 1_500 * 1024 * 1024
_WRAPPER = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=540)
sys.stderr.write(done.stderr[-4000:])
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def parse_peak(out: Path, *paths: Path) -> tuple[int, int, str]:
    """(exit code, peak RSS in bytes, stderr) of one ``pagereader parse PATHS -o out``."""
    command = [sys.executable, "-m", "pagereader", "parse", *map(str, paths), "-o", str(out)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGEREADER_")}
    done = subprocess.run(
        [sys.executable, "-c", _WRAPPER, *command, "--no-resume"],
        capture_output=True,
        text=True,
        timeout=600,
        env={**env, "COLUMNS": "200"},
        check=False,
    )
    code, kib = done.stdout.split()[-2:]
    return int(code), int(kib) * 1024, done.stderr


def document(out: Path) -> dict[str, object]:
    (found,) = out.rglob("document.json")
    data: dict[str, object] = json.loads(found.read_text(encoding="utf-8"))
    return data


def _table_scan(folder: Path) -> Path:
    table = write_ruled_table_pdf(folder / "table.pdf", 5000.0)
    return write_scan_of(table, folder / "table-scan.png", 8000, 50)


CASES = {
    "png-8000-at-50dpi": lambda d: write_big_png(d / "scan.png", 8000, 50),
    "rgb-png-8000-at-50dpi": lambda d: write_big_png(d / "photo.png", 8000, 50, color=True),
    "pdf-5000pt": lambda d: write_big_pdf(d / "poster.pdf", 5000.0),
    "pdf-14400pt": lambda d: write_big_pdf(d / "wall.pdf", 14400.0),
    "pdf-5000pt-ruled-table": lambda d: write_ruled_table_pdf(d / "table.pdf", 5000.0),
    "rgb-scan-8000-ruled-table-at-50dpi": _table_scan,
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_page_that_asks_for_gigabytes_stays_under_the_bound(tmp_path: Path, case: str) -> None:
    path = CASES[case](tmp_path)
    code, peak, stderr = parse_peak(tmp_path / "out", path)
    assert code == 0, stderr
    assert "Traceback" not in stderr
    assert peak < PEAK_BOUND_BYTES, f"{case}: peak {peak / 2**20:.0f} MiB"
    pages = document(tmp_path / "out")["pages"]
    assert isinstance(pages, list) and len(pages) == 1
    reasons = pages[0]["decision"]["reasons"]
    assert any("render.max_image_pixels" in reason for reason in reasons), reasons
    assert list((tmp_path / "out").rglob("pages/001.png"))
    if "table" in case:  # the grid is still found on the shrunk analysis raster
        tables = [b for b in pages[0]["blocks"] if b["block"]["kind"] == "table"]
        assert tables and tables[0]["html"].count("<tr") == 12, tables
        assert "R11C5" in tables[0]["html"]


def test_an_image_over_the_default_budget_is_refused_in_one_line(tmp_path: Path) -> None:
    png = write_big_png(tmp_path / "scan.png", 9000, 50)  # 81 M pixels, about 30 KB
    code, peak, stderr = parse_peak(tmp_path / "out", png)
    assert code == 1 and "Traceback" not in stderr
    (line,) = [ln for ln in stderr.splitlines() if ln.startswith("error ") and "scan.png" in ln]
    assert "9000x9000 = 81,000,000 pixels" in line and "render.max_image_pixels" in line
    assert peak < 600 * 1024 * 1024, f"peak {peak / 2**20:.0f} MiB"
