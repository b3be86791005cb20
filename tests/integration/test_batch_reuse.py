"""Cross-document page reuse in ``pagereader batch``: a slide shared by two decks is read once
(on a real in-process Ray cluster), a later run reuses it, other options miss; workers' private
stores (object-store OUT, several nodes) are merged for the next run."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from pagereader.batch import BatchConfig, run_batch
from pagereader.batch.inputs import InputItem
from pagereader.batch.manifest import Outcome
from pagereader.batch.page_sharing import PAGES_RELATIVE, merge_rows
from pagereader.batch.storage import Destination
from pagereader.batch.worker import DocumentWorker
from pagereader.cli.main import app
from pagereader.config.file import override
from pagereader.config.options import Options
from pagereader.pipeline import parse

from fixtures import deck_of_pages

RUNNER = CliRunner()


def _marks(out: Path, name: str) -> list[tuple[int | None, str | None]]:
    document = json.loads((out / name / "document.json").read_text(encoding="utf-8"))
    return [(p["duplicate_of"], p["duplicate_of_source"]) for p in document["pages"]]


def test_batch_reuses_a_shared_slide_across_documents_and_runs(
    local_ray: None, tmp_path: Path
) -> None:
    inputs = tmp_path / "in"
    first = deck_of_pages(inputs / "a.pdf", [0, 1])
    second = deck_of_pages(inputs / "b.pdf", [2, 1])
    out = tmp_path / "out"
    # one worker reads the documents in input order, so ``a`` is read before ``b``
    result = RUNNER.invoke(app, ["batch", str(inputs), "-o", str(out), "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "1 reused pages" in " ".join(result.output.split())
    assert _marks(out, "a") == [(None, None), (None, None)]
    assert _marks(out, "b") == [(None, None), (2, str(first))]
    fresh = parse(second)
    assert (out / "b" / "document.md").read_text(encoding="utf-8") == fresh.markdown
    with sqlite3.connect(out / "_batch" / "manifest.sqlite") as db:
        summary = json.loads(db.execute("SELECT summary FROM runs").fetchone()[0])
    assert summary["reused_pages"] == 1
    assert (out / PAGES_RELATIVE).is_file()

    third = deck_of_pages(inputs / "c.pdf", [3, 1, 2])
    stats = run_batch([str(inputs)], str(out), Options(), BatchConfig(workers=1))
    assert (stats.documents, stats.skipped, stats.reused) == (1, 2, 2)
    assert _marks(out, "c") == [(None, None), (2, str(first)), (1, str(second))]

    coarse = override(Options(), {("render", "dpi"): 150}, "test")
    other = tmp_path / "other"
    deck_of_pages(other / "d.pdf", [1])
    stats = run_batch([str(other)], str(out), coarse, BatchConfig(workers=1))
    assert (stats.documents, stats.reused) == (1, 0)
    assert _marks(out, "d") == [(None, None)]
    off = run_batch(
        [str(third)], str(tmp_path / "off"), Options(), BatchConfig(workers=1, reuse_pages=False)
    )
    assert off.reused == 0 and not (tmp_path / "off" / PAGES_RELATIVE).exists()


def test_private_worker_stores_are_merged_for_the_next_run(tmp_path: Path) -> None:
    """The private mode without Ray: each worker reads a copy of OUT's store and hands back
    its new rows; the merge makes them visible to the next run's workers."""
    first = deck_of_pages(tmp_path / "in" / "a.pdf", [0, 1])
    second = deck_of_pages(tmp_path / "in" / "b.pdf", [1, 2])
    destination = Destination(str(tmp_path / "out"))
    options = Options()

    worker = DocumentWorker(options, destination, "private")
    outcome = worker.parse_document(InputItem(str(first)), "a", 0)
    assert isinstance(outcome, Outcome) and outcome.reused == 0
    rows = worker.finish_pages()
    assert sorted((row[4], row[5]) for row in rows) == [(str(first), 1), (str(first), 2)]
    assert not (tmp_path / "out" / PAGES_RELATIVE).exists()  # nothing shared during the run
    assert merge_rows(destination, [rows]) == 2

    later = DocumentWorker(options, destination, "private")
    outcome = later.parse_document(InputItem(str(second)), "b", 0)
    assert isinstance(outcome, Outcome) and outcome.reused == 1
    assert _marks(tmp_path / "out", "b") == [(2, str(first)), (None, None)]
    assert merge_rows(destination, [later.finish_pages()]) == 3
