"""Corrections without a server: the audit trail, outputs rebuilt from the pipeline's own
result with provenance, a revert, and which pages become eval cases (read back by the
evaluator's own manifest reader). The folder is replaced whole: a process killed while the
outputs are regenerated (after document.md, before chunks.jsonl, review.md and
document.json) leaves every file as it was, and the next regeneration sweeps what the killed
one left; a chunker that fails leaves no chunks.jsonl of the document before the decision."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from folders import tree_bytes
from pagereader.config.options import Options
from pagereader.document.finish import PagesRead, finish_document
from pagereader.document.outputs import OUTPUTS, Finished, Output, Registry
from pagereader.evaluate.cases import read_dataset
from pagereader.render.files import CHUNKS_JSONL
from pagereader.render.json import document_json_text
from pagereader.service.jobs.store import JobStore
from pagereader.service.logs import JobFilter, JsonFormatter, job_context
from pagereader.service.reviews.cases import export_evalset
from pagereader.service.reviews.corrections import ORIGINAL_JSON, ReviewStore, regenerate
from pagereader.structure.chunks import chunks_file
from pagereader.types import (
    Block,
    BlockResult,
    DocumentResult,
    Finding,
    PageResult,
    Verdict,
)

MARK = "<!-- review: critical: shall->may -->"
FLAG = Verdict(outcome="review", findings=(Finding(check="critical", message="shall->may"),))


def _block(order: int, kind: str, text: str, verdict: Verdict | None = None) -> BlockResult:
    box = (10.0, 10.0 + 30 * order, 200.0, 30.0 + 30 * order)
    return BlockResult(
        block=Block(kind=kind, bbox=box, order=order),
        text=text,
        engine="vlm",
        verdict=verdict or Verdict(),
    )


def _page(index: int, *blocks: BlockResult) -> PageResult:
    return PageResult(index=index, width=210, height=297, blocks=blocks)


def _finished(file: str, *pages: PageResult) -> DocumentResult:
    """The document a parse finishes from these pages (review marks and page breaks on)."""
    read = PagesRead(file=file, local=file, page_count=len(pages), pages=pages)
    return finish_document(read, Options())


def _job_folder(root: Path) -> Path:
    """A finished job's folder as the pipeline leaves it: two pages, one flagged block each;
    the header line no other page repeats is body text (document/running.py)."""
    pages = [
        _page(
            1,
            _block(0, "header", "Lease Act"),
            _block(1, "title", "Duties"),
            _block(2, "text", "The tenant may pay the rent.", FLAG),
        ),
        _page(2, _block(0, "text", "Article 9 shall apply.", FLAG)),
    ]
    result = _finished("lease.pdf", *pages)
    folder = root / "jobs" / "job1"
    folder.mkdir(parents=True)
    (folder / "document.json").write_text(document_json_text(result), encoding="utf-8")
    return folder


def test_edit_regenerates_outputs_with_provenance_and_revert_restores(tmp_path: Path) -> None:
    folder = _job_folder(tmp_path)
    pipeline_json = (folder / "document.json").read_text()
    store = ReviewStore(tmp_path / "reviews.sqlite")
    edit = store.add(
        "job1",
        1,
        2,
        "edit",
        "The tenant shall pay the rent.",
        "The tenant may pay the rent.",
        "rita",
        "reviewer",
    )
    regenerate(folder, store.current("job1"), Options())

    markdown = (folder / "document.md").read_text()
    assert markdown == (
        "<!-- page 1 -->\n\nLease Act\n\n# Duties\n\nThe tenant shall pay the rent.\n\n"
        "<!-- page 2 -->\n\n<!-- review: critical: shall->may -->\nArticle 9 shall apply.\n"
    )
    data = json.loads((folder / "document.json").read_text())
    block = data["pages"][0]["blocks"][2]
    assert block["text"] == "The tenant shall pay the rent."
    assert block["corrected_by"] == "rita" and block["original"] == "The tenant may pay the rent."
    assert block["corrected_at"] == edit.at and block["verdict"]["outcome"] == "review"
    assert "corrected_by" not in data["pages"][1]["blocks"][0]
    assert (folder / ORIGINAL_JSON).read_text() == pipeline_json
    assert "1 of 4 blocks need a look" in (folder / "review.md").read_text()

    store.close()
    store = ReviewStore(tmp_path / "reviews.sqlite")  # the trail is on disk
    assert [r.action for r in store.trail("job1")] == ["edit"]
    store.add("job1", 1, 2, "revert", None, "The tenant shall pay the rent.", "ops", "admin")
    regenerate(folder, store.current("job1"), Options())
    assert "The tenant may pay the rent." in (folder / "document.md").read_text()
    assert (
        "corrected_by"
        not in json.loads((folder / "document.json").read_text())["pages"][0]["blocks"][2]
    )
    assert [r.who for r in store.trail("job1")] == ["rita", "ops"]


def test_checked_pages_become_eval_cases(tmp_path: Path) -> None:
    folder = _job_folder(tmp_path)
    jobs = JobStore(tmp_path / "jobs.sqlite")
    jobs.create("job1", "lease.pdf", "0" * 64, folder)
    jobs.finish("job1", "ok", [])
    upload = tmp_path / "uploads" / "job1" / "lease.pdf"
    upload.parent.mkdir(parents=True)
    upload.write_bytes(b"%PDF-1.4 stand-in")
    reviews = ReviewStore(tmp_path / "reviews.sqlite")
    reviews.add("job1", 1, 2, "edit", "The tenant shall pay the rent.", "x", "rita", "reviewer")
    reviews.add("job1", 1, 1, "approve", None, "Duties", "rita", "reviewer")
    reviews.add("job1", 2, 0, "unreadable", None, "Article 9 shall apply.", "rita", "reviewer")

    summary = export_evalset(jobs, reviews, tmp_path / "uploads", tmp_path / "out")
    assert (summary.cases, summary.jobs) == (1, 1)  # page 2 was marked unreadable
    cases = read_dataset(tmp_path / "out")
    assert [(c.file.name, c.page) for c in cases] == [("lease.pdf", 1)]
    assert cases[0].reference == "Lease Act\nDuties\nThe tenant shall pay the rent.\n"
    assert cases[0].file.read_bytes() == upload.read_bytes()

    reviews.add("job1", 1, 2, "revert", None, "The tenant shall pay the rent.", "ops", "admin")
    summary = export_evalset(jobs, reviews, tmp_path / "uploads", tmp_path / "again")
    assert summary.cases == 0  # the flagged block of page 1 is undecided again


def test_running_jobs_stay_running_for_a_reader_beside_the_server(tmp_path: Path) -> None:
    jobs = JobStore(tmp_path / "jobs.sqlite")
    jobs.create("a", "a.pdf", "0" * 64, tmp_path / "a")
    assert jobs.claim() is not None
    beside = JobStore(tmp_path / "jobs.sqlite")
    assert beside.get("a").status == "running"  # type: ignore[union-attr]
    assert beside.requeue_running() == 1  # what the server does when it starts
    assert jobs.get("a").status == "queued"  # type: ignore[union-attr]


def test_json_log_lines_carry_the_job_id() -> None:
    record = logging.LogRecord(
        "pagereader.x", logging.INFO, __file__, 1, "page %d done", (3,), None
    )
    with job_context("abc123"):
        JobFilter().filter(record)
    outside = logging.LogRecord("pagereader.x", logging.WARNING, __file__, 1, "idle", (), None)
    JobFilter().filter(outside)
    entry = json.loads(JsonFormatter().format(record))
    assert entry["job_id"] == "abc123" and entry["message"] == "page 3 done"
    assert entry["level"] == "info" and entry["logger"] == "pagereader.x"
    assert "job_id" not in json.loads(JsonFormatter().format(outside))


SRC = Path(__file__).resolve().parents[3] / "src"

KILLED_WHILE_REGENERATING = """
import os, signal, sys
from pathlib import Path
from pagereader.service.reviews.corrections import ReviewStore, regenerate

from pagereader.config.options import Options
from pagereader.document.outputs import OUTPUTS, Output, Registry
from pagereader.render.files import CHUNKS_JSONL

def crash(finished):  # document.md and timings.json are written by now
    os.kill(os.getpid(), signal.SIGKILL)

views = tuple(Output(o.file, crash) if o.file == CHUNKS_JSONL else o for o in OUTPUTS.views)
outputs = Registry(views, OUTPUTS.report, OUTPUTS.record, OUTPUTS.kept)
store = ReviewStore(Path(sys.argv[2]))
regenerate(Path(sys.argv[1]), store.current("job1"), Options(), outputs)
"""


def _siblings(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.parent.iterdir() if p != folder)


@pytest.fixture
def corrected_once(tmp_path: Path) -> tuple[Path, ReviewStore]:
    """A job's folder with one decision applied (all four outputs written), and a second
    decision recorded but not yet applied."""
    folder = _job_folder(tmp_path)
    store = ReviewStore(tmp_path / "reviews.sqlite")
    store.add("job1", 1, 2, "edit", "The tenant shall pay.", "may", "rita", "reviewer")
    regenerate(folder, store.current("job1"), Options())
    assert {"document.md", "chunks.jsonl", "review.md"} <= set(tree_bytes(folder))
    store.add("job1", 2, 0, "edit", "Article 9 must apply.", "shall", "rita", "reviewer")
    return folder, store


def test_a_process_killed_while_regenerating_leaves_the_outputs_whole(
    corrected_once: tuple[Path, ReviewStore], tmp_path: Path
) -> None:
    folder, store = corrected_once
    before = tree_bytes(folder)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            KILLED_WHILE_REGENERATING,
            str(folder),
            str(tmp_path / "reviews.sqlite"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert tree_bytes(folder) == before  # not a new document.md beside the old chunks.jsonl

    regenerate(folder, store.current("job1"), Options())
    assert "Article 9 must apply." in (folder / "document.md").read_text(encoding="utf-8")
    chunks = [json.loads(line) for line in (folder / "chunks.jsonl").read_text().splitlines()]
    assert any("Article 9 must apply." in chunk["text"] for chunk in chunks)
    assert _siblings(folder) == []  # what the killed process left is swept


def _broken_chunks(finished: Finished) -> str:
    raise RuntimeError("tokenizer gone")


def test_a_failing_chunker_leaves_no_chunks_of_the_text_before(
    corrected_once: tuple[Path, ReviewStore],
) -> None:
    folder, store = corrected_once
    assert "Article 9 shall apply." in (folder / "chunks.jsonl").read_text()
    views = tuple(
        Output(o.file, _broken_chunks, o.stage) if o.file == CHUNKS_JSONL else o
        for o in OUTPUTS.views
    )
    broken = Registry(views, OUTPUTS.report, OUTPUTS.record, OUTPUTS.kept)
    result = regenerate(folder, store.current("job1"), Options(), broken)
    assert result is not None and result.status == "partial"
    assert not (folder / "chunks.jsonl").exists()  # no chunks of the superseded text
    assert "Article 9 must apply." in (folder / "document.md").read_text()
    errors = json.loads((folder / "document.json").read_text())["errors"]
    assert [e["stage"] for e in errors] == ["chunks"]
    assert "RuntimeError: tokenizer gone" in errors[0]["message"]
    assert _siblings(folder) == []


def _statute_folder(root: Path) -> Path:
    """A finished job of a statute page with articles 11, 12 and 13, one block each."""
    lines = (
        "第十一條 雇主應置備勞工名卡。",
        "第十二條 勞工得請求雇主發給服務證明書。",
        "第十三條 雇主不得於勞工產假期間終止契約。",
    )
    blocks = tuple(_block(order, "text", text) for order, text in enumerate(lines))
    result = _finished("law.pdf", _page(1, *blocks))
    folder = root / "jobs" / "law"
    folder.mkdir(parents=True)
    (folder / "document.json").write_text(document_json_text(result), encoding="utf-8")
    (folder / "chunks.jsonl").write_text(chunks_file(result, Options()), encoding="utf-8")
    return folder


def _articles(folder: Path) -> tuple[list[str], list[str | None]]:
    """The article ids of document.json's structure tree and of chunks.jsonl, as written."""
    data = json.loads((folder / "document.json").read_text())
    tree = [node["id"] for node in data["structure"]]
    chunks = (folder / "chunks.jsonl").read_text().splitlines()
    return tree, [json.loads(line)["article_id"] for line in chunks]


def test_an_edited_article_number_moves_the_structure_and_the_chunks(tmp_path: Path) -> None:
    folder = _statute_folder(tmp_path)
    assert _articles(folder) == (["art-11", "art-12", "art-13"], ["art-11", "art-12", "art-13"])
    store = ReviewStore(tmp_path / "reviews.sqlite")
    store.add(
        "law", 1, 1, "edit", "第二十二條 勞工得請求雇主發給服務證明書。", "", "rita", "reviewer"
    )
    regenerate(folder, store.current("law"), Options())
    tree, chunks = _articles(folder)
    assert tree == ["art-11", "art-22", "art-13"] and chunks == tree
    chunk = json.loads((folder / "chunks.jsonl").read_text().splitlines()[1])
    assert chunk["heading_path"] == ["第二十二條"] and "第二十二條" in chunk["text"]


def test_approving_every_block_leaves_every_output_as_it_was(tmp_path: Path) -> None:
    folder = _statute_folder(tmp_path)
    store = ReviewStore(tmp_path / "reviews.sqlite")
    for order in range(3):
        store.add("law", 1, order, "approve", None, "", "rita", "reviewer")
    original = json.loads((folder / "document.json").read_text())
    chunks = (folder / "chunks.jsonl").read_text()
    regenerate(folder, store.current("law"), Options())
    assert (folder / "chunks.jsonl").read_text() == chunks
    assert json.loads((folder / "document.json").read_text()) == original
    assert "approved_by" not in (folder / "document.json").read_text()
