"""Pages made to cost minutes stay within the page's work bound, and a cancelled job stops.

A 300 KB PDF page of 100,000 one-point text objects took about 100 s of CPU on the text-layer
path; past ``classify.max_page_chars`` it is read as a scan and says so. A page past
``budget.max_page_s`` stops at its next block with an error naming the key; blocks past
``budget.max_page_blocks`` are cut with one. Each parse runs the real CLI in a child of a small
wrapper that reports the child's peak RSS and CPU seconds (``RUSAGE_CHILDREN``): CPU, not wall
time, so a busy CI machine does not move the numbers. The service test deletes a running job on
a real ``pagereader serve`` and reads the server's own CPU from /proc for 3 s after the DELETE.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from adversarial.conftest import cli_env
from adversarial.crowded_pages import crowded_pdf
from adversarial.documents import text_pdf

from service_process import running, server_env

pytestmark = pytest.mark.slow  # seconds of real engines, servers or processes

PEAK_BOUND_BYTES = 1_500 * 1024 * 1024
CPU_BOUND_S = 30.0
"""The 100,000-object page: about 15 s of CPU on 2 cores with the models' load (100 s before
the bound); generous for slow CI cores, far under the unbounded path."""
_WRAPPER = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=540)
sys.stderr.write(done.stderr[-4000:])
use = resource.getrusage(resource.RUSAGE_CHILDREN)
print(done.returncode, use.ru_maxrss, use.ru_utime + use.ru_stime)
"""


def parse_measured(path: Path, out: Path, *extra: str) -> tuple[int, int, float, str]:
    """(exit code, peak RSS in bytes, CPU seconds, stderr) of ``pagereader parse``."""
    env = {k: v for k, v in cli_env().items() if not k.startswith("PAGEREADER_")}
    command = [sys.executable, "-m", "pagereader", "parse", str(path), "-o", str(out)]
    done = subprocess.run(
        [sys.executable, "-c", _WRAPPER, *command, "--no-resume", *extra],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=False,
    )
    code, kib, cpu = done.stdout.split()[-3:]
    return int(code), int(kib) * 1024, float(cpu), done.stderr


def only_page(out: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    (found,) = out.rglob("document.json")
    document: dict[str, Any] = json.loads(found.read_text(encoding="utf-8"))
    (page,) = document["pages"]
    return document, page


def config(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_page_of_100000_text_objects_is_read_as_a_scan_within_the_bound(
    tmp_path: Path,
) -> None:
    pdf = crowded_pdf(tmp_path / "crowded.pdf")
    assert pdf.stat().st_size < 400_000
    code, peak, cpu, stderr = parse_measured(pdf, tmp_path / "out")
    assert code == 0, stderr
    assert "Traceback" not in stderr
    assert cpu < CPU_BOUND_S, f"{cpu:.1f} s of CPU"
    assert peak < PEAK_BOUND_BYTES, f"peak {peak / 2**20:.0f} MiB"
    document, page = only_page(tmp_path / "out")
    assert document["status"] == "ok"
    assert page["decision"]["page_class"] == "scan"
    assert any("classify.max_page_chars" in r for r in page["decision"]["reasons"])
    assert any("classify.max_page_chars" in w for w in page["warnings"]), page["warnings"]
    # past twice the bound the layer is not read, only counted (PDFium's count, spaces too)
    counted = re.search(
        r"text layer has ([\d,]+) characters, over classify\.max_page_chars", stderr
    )
    assert counted and int(counted.group(1).replace(",", "")) >= 100_000, stderr


def test_a_page_past_its_seconds_stops_with_an_error_naming_the_key(tmp_path: Path) -> None:
    pdf = crowded_pdf(tmp_path / "crowded.pdf")
    raised = config(
        tmp_path / "slow.toml",
        "[classify]\nmax_page_chars = 1000000\n\n[budget]\nmax_page_s = 2\n",
    )
    started = time.monotonic()
    code, _, cpu, stderr = parse_measured(pdf, tmp_path / "out", "--config", str(raised))
    assert "Traceback" not in stderr
    assert code in (0, 1), stderr  # 1: the page has nothing read, the run did not crash
    document, page = only_page(tmp_path / "out")
    assert document["status"] in ("partial", "failed"), document["status"]
    messages = [e["message"] for e in page["errors"]]
    assert any("budget.max_page_s (2 s)" in m for m in messages), messages
    # render and model load are outside the page's seconds; the rest is 2 s + one block
    assert cpu < CPU_BOUND_S and time.monotonic() - started < 120, f"{cpu:.1f} s of CPU"


def test_blocks_past_the_bound_are_cut_with_an_error(tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "report.pdf")
    one = config(tmp_path / "one.toml", "[budget]\nmax_page_blocks = 1\n")
    _, _, _, stderr = parse_measured(pdf, tmp_path / "out", "--config", str(one))
    assert "Traceback" not in stderr
    document, page = only_page(tmp_path / "out")
    assert document["status"] == "partial", stderr
    assert len(page["blocks"]) == 1
    assert page["blocks"][0]["text"].startswith("Report page 1")
    (error,) = page["errors"]
    assert "budget.max_page_blocks (1)" in error["message"], error
    assert "the last 1 in reading order are not read" in error["message"]


def _cpu_s(pid: int) -> float:
    """User and system CPU seconds of a process (all its threads), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_deleted_job_stops_using_the_cpu(tmp_path: Path) -> None:
    """Twelve pages of 4,000 text objects each in rows of 500 (a text layer within the bound,
    whose layout took 8 s a page before the row grouping was made linear): the job is deleted
    in the middle of a page, and the server goes quiet."""
    pdf = crowded_pdf(tmp_path / "rows.pdf", objects=4_000, pages=12)
    admin = secrets.token_urlsafe(24)
    tokens = config(tmp_path / "tokens.txt", f"root:admin:{admin}\n")
    auth = {"Authorization": f"Bearer {admin}"}
    env = server_env(OMP_THREAD_LIMIT="1")
    with running(
        tmp_path / "data", tmp_path / "serve.log", "--token-file", str(tokens), env=env
    ) as server:
        files = {"file": (pdf.name, pdf.read_bytes())}
        posted = httpx.post(f"{server.url}/v1/documents", files=files, headers=auth, timeout=30)
        job_id = posted.json()["id"]
        deadline = time.monotonic() + 300
        while True:  # until the first pages are done: the job is deep in its work
            job = httpx.get(f"{server.url}/v1/jobs/{job_id}", headers=auth, timeout=30).json()
            assert job["status"] in ("queued", "running"), job
            if job["pages_done"] >= 2:
                break
            assert time.monotonic() < deadline, job
            time.sleep(0.1)
        into = _cpu_s(server.process.pid) + 1.5  # the next pages are past their render
        while _cpu_s(server.process.pid) < into:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        answer = httpx.delete(f"{server.url}/v1/jobs/{job_id}", headers=auth, timeout=60)
        assert answer.status_code == 200, answer.text
        assert answer.json()["cancelled"] is True
        before = _cpu_s(server.process.pid)
        time.sleep(3.0)
        spent = _cpu_s(server.process.pid) - before
    assert spent < 0.5, f"the server used {spent:.2f} s of CPU in the 3 s after the DELETE"
