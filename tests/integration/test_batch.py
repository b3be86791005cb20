"""``pagereader batch`` on a real in-process Ray cluster: the same files as ``parse``, a corrupt
document failed with its message, page-range splits merged in order, a worker killed mid-run."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from typer.testing import CliRunner

from pagereader.batch import BatchConfig, BatchStats, run_batch
from pagereader.cli.main import app
from pagereader.config.options import Options
from pagereader.sources.office import find_soffice
from pagereader.structure.chunks import read_chunks_jsonl

from fixtures import Fixtures
from fixtures.decks import logo_deck
from service_process import free_port

pytestmark = pytest.mark.slow  # seconds of real engines, servers or processes

RUNNER = CliRunner()


def _concat(paths: list[Path], dest: Path) -> int:
    """One PDF holding every page of ``paths``; returns its page count."""
    merged = pdfium.PdfDocument.new()
    for path in paths:
        source = pdfium.PdfDocument(str(path))
        merged.import_pages(source)
        source.close()
    count = len(merged)
    merged.save(str(dest))
    merged.close()
    return count


@pytest.fixture(scope="module")
def corpus(fixtures: Fixtures, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Digital PDFs, scans (PNG), a long PDF to split, a PPTX when LibreOffice is there,
    and one corrupt PDF."""
    folder = tmp_path_factory.mktemp("corpus")
    for path in (
        fixtures.deck_pdf,
        fixtures.legal_pdf,
        fixtures.two_column_pdf,
        fixtures.dense_pdf,
        fixtures.table_pdf,
        fixtures.root / "mixed.pdf",
        *fixtures.scan_pngs,
        fixtures.corrupt_pdf,
    ):
        shutil.copy(path, folder / path.name)
    shutil.copy(fixtures.mixed_scan_png, folder / "mixed-scan.png")
    logo_deck(folder / "logo-deck.pdf", pages=7)  # a recurring picture across every range
    assert _concat([fixtures.deck_pdf, fixtures.legal_pdf], folder / "long.pdf") == 7
    if find_soffice():
        shutil.copy(fixtures.pptx, folder / "slides.pptx")
    assert len(list(folder.iterdir())) >= 12
    return folder


@pytest.fixture(scope="module")
def parsed(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference: ``pagereader parse`` of the same folder."""
    out = tmp_path_factory.mktemp("parse-out")
    result = RUNNER.invoke(app, ["parse", str(corpus), "-o", str(out), "--no-resume"])
    assert result.exit_code == 1, result.output
    return out


def _documents(out: Path) -> dict[str, bytes]:
    return {
        path.parent.name: path.read_bytes()
        for path in out.glob("*/document.md")
        if not path.parent.name.startswith("_")
    }


def _manifest(out: Path) -> dict[str, tuple[str, int, str]]:
    with sqlite3.connect(out / "_batch" / "manifest.sqlite") as db:
        rows = db.execute("SELECT name, status, pages, error FROM documents").fetchall()
    return {name: (status, pages, error) for name, status, pages, error in rows}


SECONDS = ("latency_s", "timings")
SHARED = ("duplicate_of", "duplicate_of_source")
"""Where a page shared across documents was first read: the document whose worker reached it
first, so it depends on the workers' timing (long.pdf holds deck.pdf's and legal.pdf's pages)."""


def _first_difference(left: object, right: object, at: str = "") -> str:
    """Where two JSON values first differ, and how: a failing comparison names the field
    instead of printing two whole documents."""
    if isinstance(left, dict) and isinstance(right, dict):
        for key in sorted(set(left) | set(right)):
            if left.get(key, "<absent>") != right.get(key, "<absent>"):
                return _first_difference(
                    left.get(key, "<absent>"), right.get(key, "<absent>"), f"{at}.{key}"
                )
    elif isinstance(left, list) and isinstance(right, list):
        for index, (a, b) in enumerate(zip(left, right, strict=False)):
            if a != b:
                return _first_difference(a, b, f"{at}[{index}]")
        if len(left) != len(right):
            return f"{at}: {len(left)} items against {len(right)}"
    return f"{at}: {left!r:.300} against {right!r:.300}"


def _without_latency(value: object) -> object:
    """document.json as read, less the seconds each page, block and request took, and where
    a page shared with another document was first read."""
    if isinstance(value, dict):
        return {k: _without_latency(v) for k, v in value.items() if k not in SECONDS + SHARED}
    if isinstance(value, list):
        return [_without_latency(v) for v in value]
    return value


def test_batch_matches_parse(local_ray: None, corpus: Path, parsed: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = RUNNER.invoke(app, ["batch", str(corpus), "-o", str(out), "--max-pages-per-task", "3"])
    assert result.exit_code == 1, result.output
    expected = _documents(parsed)
    got = _documents(out)
    assert sorted(got) == sorted(expected)
    for name, markdown in expected.items():
        assert got[name] == markdown, name
    long_json = json.loads((out / "long" / "document.json").read_text(encoding="utf-8"))
    assert [page["index"] for page in long_json["pages"]] == list(range(1, 8))
    assert sorted(p.name for p in (out / "long" / "pages").iterdir()) == sorted(
        p.name for p in (parsed / "long" / "pages").iterdir()
    )
    assert json.loads((out / "long" / "timings.json").read_text(encoding="utf-8"))
    for name in expected:  # every output as parse writes it, the seconds taken aside
        for output in ("chunks.jsonl", "review.md"):
            assert (out / name / output).read_bytes() == (parsed / name / output).read_bytes(), (
                name,
                output,
            )
        documents = [json.loads((o / name / "document.json").read_text()) for o in (out, parsed)]
        batch_json, parse_json = (_without_latency(d) for d in documents)
        assert batch_json == parse_json, (name, _first_difference(batch_json, parse_json))
        for page in documents[0]["pages"]:  # a shared page names a page that read its blocks
            if page.get("duplicate_of_source"):
                source = Path(page["duplicate_of_source"]).stem
                first = json.loads((out / source / "document.json").read_text(encoding="utf-8"))
                read = first["pages"][page["duplicate_of"] - 1]
                texts = [[block["text"] for block in p["blocks"]] for p in (read, page)]
                assert texts[0] == texts[1], (name, page["index"], source)
    logo = json.loads((out / "logo-deck" / "document.json").read_text(encoding="utf-8"))
    assert [p["pages"] for p in logo["recurring_pictures"]] == [list(range(1, 8))]
    long_chunks = read_chunks_jsonl((out / "long" / "chunks.jsonl").read_text(encoding="utf-8"))
    chunk_pages = {page for chunk in long_chunks for page in chunk.pages}
    assert {1, 7} <= chunk_pages <= set(range(1, 8))  # read in three ranges, chunked as one

    rows = _manifest(out)
    assert set(rows) == set(expected)
    reference = json.loads((parsed / "corrupt" / "document.json").read_text(encoding="utf-8"))
    assert reference["status"] == "failed"
    status, pages, error = rows["corrupt"]
    assert (status, pages) == ("failed", 0)
    assert reference["errors"][0]["message"] in error
    assert "corrupt.pdf" in error
    assert "failed" in result.output and "corrupt.pdf" in result.output
    for name, (status, pages, _) in rows.items():
        if name != "corrupt":
            parsed_json = json.loads((parsed / name / "document.json").read_text("utf-8"))
            assert (status, pages) == (parsed_json["status"], len(parsed_json["pages"])), name
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no staging left
    status_lines = (out / "_batch" / "status.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(status_lines) == len(expected)


def _busy_worker() -> int | None:
    """The pid of an actor process that is reading a document right now (Ray titles its
    processes ``ray::Class.method`` while a call runs)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if title.startswith("ray::DocumentWorker.parse_document"):
            return int(entry.name)
    return None


def _gone(pid: int) -> bool:
    """The process has exited (a zombie not yet reaped by its parent counts as exited)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def test_killed_worker_leaves_every_document_once(
    local_ray: None, fixtures: Fixtures, parsed: Path, corpus: Path, tmp_path: Path
) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    names = ["deck", "legal", "two-column", "dense", "table", "mixed", "long"]
    for name in names:
        shutil.copy(corpus / f"{name}.pdf", inputs / f"{name}.pdf")
    out = tmp_path / "out"
    killed: list[int] = []

    def kill_when_busy() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not killed:
            pid = _busy_worker()
            if pid is not None:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_when_busy)
    killer.start()
    config = BatchConfig(workers=2, max_pages_per_task=4)
    taken: list[str] = []
    taken_at_first_result: list[int] = []

    def lazy_inputs() -> Iterator[str]:
        for name in names:
            taken.append(name)
            yield str(inputs / f"{name}.pdf")

    def on_progress(progress: BatchStats) -> None:
        if progress.documents and not taken_at_first_result:
            taken_at_first_result.append(len(taken))

    stats = run_batch(lazy_inputs(), str(out), Options(), config, on_progress=on_progress)
    killer.join()
    assert killed, "no worker was caught reading a document"
    # Backpressure: two workers, two tasks each; the fifth input is read only after a result.
    assert taken_at_first_result and taken_at_first_result[0] <= 4 < len(names)
    assert _gone(killed[0])
    assert (stats.documents, stats.failed) == (len(names), 0)
    rows = _manifest(out)
    assert {name: row[0] for name, row in rows.items()} == dict.fromkeys(names, "ok")
    assert sorted(p.name for p in out.iterdir()) == sorted([*names, "_batch"])
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no staging left
    for name in names:
        assert (out / name / "document.md").read_bytes() == (
            parsed / name / "document.md"
        ).read_bytes()

    again: list[BatchStats] = []
    second = run_batch([str(inputs)], str(out), Options(), config, on_progress=again.append)
    assert (second.documents, second.skipped, second.tasks) == (0, len(names), 0)
    result = RUNNER.invoke(app, ["batch", str(inputs), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "nothing to parse" in result.output


@pytest.fixture
def s3_endpoint(tmp_path: Path) -> Iterator[str]:
    """A real S3-compatible server (moto) on loopback, stopped at the end."""
    port = free_port()
    server = shutil.which("moto_server") or str(Path(sys.executable).parent / "moto_server")
    process = subprocess.Popen(
        [server, "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "moto.log").open("wb"),
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{url}/moto-api/", timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_s3_output_listed_and_read_back(
    local_ray: None, corpus: Path, parsed: Path, s3_endpoint: str, tmp_path: Path
) -> None:
    import boto3
    import fsspec

    storage: dict[str, object] = {
        "key": "testing",
        "secret": "testing",
        "client_kwargs": {"endpoint_url": s3_endpoint, "region_name": "us-east-1"},
    }
    boto3.client(
        "s3",
        endpoint_url=s3_endpoint,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        region_name="us-east-1",
    ).create_bucket(Bucket="corpus")
    fs = fsspec.filesystem("s3", **storage)
    fs.put_file(str(corpus / "long.pdf"), "corpus/in/long.pdf")
    config = BatchConfig(workers=2, max_pages_per_task=4)
    listing = tmp_path / "more.txt"
    listing.write_text("s3://corpus/in/missing.pdf\n", encoding="utf-8")
    inputs = [str(corpus / "table.pdf"), "s3://corpus/in/", str(listing)]
    stats = run_batch(inputs, "s3://corpus/out", Options(), config, storage_options=storage)
    assert (stats.documents, stats.failed) == (3, 1)
    (uri, error), *_ = stats.failures
    assert uri == "s3://corpus/in/missing.pdf"
    assert error.startswith("s3://corpus/in/missing.pdf: could not download the document")

    fs.invalidate_cache()
    listed = sorted(fs.find("corpus/out"))
    for name in ("table", "long"):
        expected = sorted(
            f"corpus/out/{name}/{p.relative_to(parsed / name).as_posix()}"
            for p in (parsed / name).rglob("*")
            if p.is_file()
        )
        assert [p for p in listed if p.startswith(f"corpus/out/{name}/")] == sorted(
            [*expected, f"corpus/out/{name}/_SUCCESS"]
        )
        assert (
            fs.cat_file(f"corpus/out/{name}/document.md")
            == (parsed / name / "document.md").read_bytes()
        )
    assert not [p for p in listed if p.startswith("corpus/out/missing/")]
    # a remote document is named by its URI, not by the file it was downloaded to
    assert json.loads(fs.cat_file("corpus/out/long/document.json"))["source"] == (
        "s3://corpus/in/long.pdf"
    )
    status = fs.cat_file("corpus/out/_batch/status.jsonl").decode().splitlines()
    assert sorted(json.loads(line)["status"] for line in status) == ["failed", "ok", "ok"]

    # the workers' page stores were merged and uploaded; remote pages are named by their URI
    store = tmp_path / "pages.sqlite"
    store.write_bytes(fs.cat_file("corpus/out/_batch/pages.sqlite"))
    with sqlite3.connect(store) as db:
        sources = {row[0] for row in db.execute("SELECT source FROM shared_pages")}
    assert sources == {str(corpus / "table.pdf"), "s3://corpus/in/long.pdf"}

    fs.put_file(str(corpus / "table.pdf"), "corpus/later/copy.pdf")
    later = [*inputs, "s3://corpus/later/copy.pdf"]
    again = run_batch(later, "s3://corpus/out", Options(), config, storage_options=storage)
    assert (again.documents, again.skipped, again.failed, again.reused) == (2, 2, 1, 1)
    copy = json.loads(fs.cat_file("corpus/out/copy/document.json"))
    assert copy["pages"][0]["duplicate_of"] == 1
    assert copy["pages"][0]["duplicate_of_source"] == str(corpus / "table.pdf")


def _cluster_pids(marker: str) -> set[int]:
    """Processes of the test cluster: those whose command line names its temp folder, and
    every descendant of those (agents and actor processes retitle themselves)."""
    parents: dict[int, int] = {}
    found: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().decode(errors="replace")
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(stat[1])
        if marker in command:
            found.add(int(entry.name))
    grew = True
    while grew:
        children = {pid for pid, parent in parents.items() if parent in found} - found
        found |= children
        grew = bool(children)
    return found


def test_two_node_cluster_on_loopback(corpus: Path, parsed: Path, tmp_path: Path) -> None:
    """A head and a second node started with ``ray start``, one CPU each; two one-CPU workers
    can only be placed one on each node, so a finished batch used both."""
    ray_bin = shutil.which("ray") or str(Path(sys.executable).parent / "ray")
    temp = Path(tempfile.mkdtemp(prefix="rt-", dir="/tmp"))
    port = free_port()
    env = {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
    common = ["--num-cpus", "1", "--node-ip-address", "127.0.0.1", "--disable-usage-stats"]
    address = f"127.0.0.1:{port}"
    inputs = tmp_path / "in"
    inputs.mkdir()
    names = ["deck", "legal", "table"]
    for name in names:
        shutil.copy(corpus / f"{name}.pdf", inputs / f"{name}.pdf")
    out = tmp_path / "out"
    try:
        for extra in (
            ["--head", "--port", str(port), "--include-dashboard=false", f"--temp-dir={temp}"],
            ["--address", address],
        ):
            subprocess.run(
                [ray_bin, "start", *extra, *common], env=env, check=True, capture_output=True
            )
        command = [sys.executable, "-m", "pagereader", "batch", str(inputs), "-o", str(out)]
        command += ["--address", address, "--workers", "2", "--max-pages-per-task", "2"]
        done = subprocess.run(
            command,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        for pid in _cluster_pids(str(temp)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(temp, ignore_errors=True)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "3 documents parsed (0 partial, 0 failed)" in " ".join(done.stderr.split())
    # two nodes: one page store per worker, merged into OUT's at the end
    with sqlite3.connect(out / "_batch" / "pages.sqlite") as db:
        sources = {row[0] for row in db.execute("SELECT source FROM shared_pages")}
    assert sources == {str(inputs / f"{name}.pdf") for name in names}
    for name in names:
        assert (out / name / "document.md").read_bytes() == (
            parsed / name / "document.md"
        ).read_bytes()
