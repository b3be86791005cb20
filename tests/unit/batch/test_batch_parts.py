"""The batch package's parts that need no Ray: inputs, names, ranges, manifest, percentiles,
and the local exactly-once commit (its folder swap: tests/unit/test_atomic_folders.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pagereader.atomic import StagedFolder
from pagereader.batch.inputs import iter_inputs
from pagereader.batch.manifest import Manifest, Outcome, batch_options_digest
from pagereader.batch.page_sharing import sharing_mode
from pagereader.batch.progress import BatchStats
from pagereader.batch.storage import Destination
from pagereader.batch.worker import actor_options, page_ranges
from pagereader.config.options import OpenAIEngineOptions, Options
from pagereader.errors import InputError
from pagereader.timing import percentile


def _touch(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"%PDF-1.4\n")
    return path


def test_inputs_folders_globs_and_manifests(tmp_path: Path) -> None:
    a = _touch(tmp_path / "docs" / "a.pdf")
    b = _touch(tmp_path / "docs" / "sub" / "b.png")
    _touch(tmp_path / "docs" / "notes.xyz")
    c = _touch(tmp_path / "other" / "c.pdf")
    listing = tmp_path / "list.txt"
    listing.write_text("# a comment\nother/c.pdf\n\ns3://bucket/d.pdf\n", encoding="utf-8")
    records = tmp_path / "list.jsonl"
    records.write_text(json.dumps({"path": str(a)}) + "\n", encoding="utf-8")

    assert [i.uri for i in iter_inputs([str(tmp_path / "docs")])] == [str(a), str(b)]
    assert [i.uri for i in iter_inputs([str(tmp_path / "*" / "*.pdf")])] == [str(a), str(c)]
    items = list(iter_inputs([str(records), str(listing)]))[:2]
    assert [i.uri for i in items] == [str(a), str(c)]
    remote = list(iter_inputs([str(listing)]))
    assert remote[-1].is_remote and remote[-1].stem == "d" and remote[-1].suffix == ".pdf"


def test_inputs_are_read_lazily(tmp_path: Path) -> None:
    listing = tmp_path / "big.txt"
    listing.write_text("one.pdf\n" * 1000 + "{broken\n", encoding="utf-8")
    stream = iter_inputs([str(listing)])
    assert next(stream).uri == str(tmp_path / "one.pdf")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"path": "x.pdf"}\nnot json\n', encoding="utf-8")
    stream = iter_inputs([str(bad)])
    assert next(stream).uri == str(tmp_path / "x.pdf")
    with pytest.raises(InputError, match="line 2"):
        next(stream)


@pytest.mark.parametrize(
    ("count", "per_task", "expected"),
    [(7, 3, [(1, 3), (4, 6), (7, 7)]), (3, 3, [(1, 3)]), (1, 50, [(1, 1)])],
)
def test_page_ranges(count: int, per_task: int, expected: list[tuple[int, int]]) -> None:
    assert page_ranges(count, per_task) == expected


def test_percentile_nearest_rank() -> None:
    values = [float(v) for v in range(1, 21)]
    assert percentile(values, 0.5) == 10.0
    assert percentile(values, 0.95) == 19.0
    assert percentile([4.0], 0.95) == 4.0
    assert percentile([], 0.5) == 0.0


def test_manifest_names_resume_and_digest(tmp_path: Path) -> None:
    manifest = Manifest(tmp_path / "m.sqlite")
    options = Options()
    digest = batch_options_digest(options)
    assert manifest.name_for("/x/deck.pdf", "deck", ".pdf") == "deck"
    assert manifest.name_for("/y/deck.pptx", "deck", ".pptx") == "deck-pptx"
    assert manifest.name_for("/z/deck.pptx", "deck", ".pptx") == "deck-pptx-2"
    assert manifest.name_for("/x/deck.pdf", "deck", ".pdf") == "deck"
    assert not manifest.complete("/x/deck.pdf", digest)
    manifest.record(Outcome(uri="/x/deck.pdf", name="deck", status="ok", pages=4), digest, "r1")
    manifest.record(Outcome(uri="/y/deck.pptx", name="deck-pptx", status="failed"), digest, "r1")
    assert manifest.complete("/x/deck.pdf", digest)
    assert not manifest.complete("/y/deck.pptx", digest)
    other = options.model_copy(update={"lang": "ko"})
    assert batch_options_digest(other) != digest
    assert not manifest.complete("/x/deck.pdf", batch_options_digest(other))
    lines = [json.loads(line) for line in manifest.status_jsonl().decode().splitlines()]
    assert [(r["name"], r["status"], r["pages"]) for r in lines] == [
        ("deck", "ok", 4),
        ("deck-pptx", "failed", 0),
        ("deck-pptx-2", "pending", 0),
    ]
    manifest.close()


def test_a_local_document_is_put_in_place_by_its_writer(tmp_path: Path) -> None:
    """Locally the writer builds OUT/<name> aside and renames it in (atomic.py); the commit
    adds nothing, and a failed later attempt leaves the committed folder."""
    destination = Destination(str(tmp_path / "out"))
    folder = destination.folder("doc")
    assert folder == tmp_path / "out" / "doc"
    with StagedFolder(folder) as staged:
        (staged.path / "document.md").write_text("one", encoding="utf-8")
        staged.publish()
    destination.commit("doc", folder)
    assert destination.committed("doc")
    destination.discard(destination.folder("doc"))
    assert (folder / "document.md").read_text(encoding="utf-8") == "one"
    assert destination.clean_staging() == 0


def test_stats_summary_by_class_and_failures() -> None:
    stats = BatchStats()
    digital = [0.5, 1.5, 1.0, 2.0]
    stats.add(
        Outcome(
            uri="a.pdf",
            name="a",
            status="ok",
            pages=2,
            page_classes=(("digital", digital[0]), ("digital", digital[1])),
        )
    )
    stats.add(
        Outcome(
            uri="b.pdf",
            name="b",
            status="partial",
            pages=3,
            cache_hits=1,
            reused=2,
            page_classes=(("digital", digital[2]), ("scan", 3.0), ("digital", digital[3])),
        )
    )
    stats.add(Outcome(uri="c.pdf", name="c", status="failed", error="c.pdf: not a readable PDF"))
    summary = stats.summary()
    assert (summary["documents"], summary["failed"], summary["partial"]) == (3, 1, 1)
    assert (summary["pages"], summary["duplicate_pages"], summary["reused_pages"]) == (5, 1, 2)
    ordered = sorted(digital)
    assert summary["seconds_per_page"] == {
        "digital": {"pages": 4, "p50": ordered[1], "p95": ordered[3]},
        "scan": {"pages": 1, "p50": 3.0, "p95": 3.0},
    }
    assert summary["failures"] == [{"uri": "c.pdf", "error": "c.pdf: not a readable PDF"}]
    assert "documents 3 done, 1 failed" in stats.line()


def test_page_store_mode_by_destination_and_nodes(tmp_path: Path) -> None:
    local = Destination(str(tmp_path / "out"))
    remote = Destination("s3://bucket/out")
    assert sharing_mode(local, True, 1) == "shared"
    assert sharing_mode(local, True, 2) == "private"  # no SQLite over a network filesystem
    assert sharing_mode(remote, True, 1) == "private"
    assert sharing_mode(local, False, 1) == "off"


def test_an_actor_keeps_to_its_cpus() -> None:
    """One CPU: models, layout and OpenCV on one thread and one page at a time; with a VLM
    endpoint the pages in flight stay, since they hide its latency, not use cores."""
    one = actor_options(Options(), 1.0)
    assert (one.ocr.threads, one.budget.pages_in_flight) == (1, 1)
    four = actor_options(Options(), 4.5)
    assert (four.ocr.threads, four.budget.pages_in_flight) == (4, 4)
    served = Options(
        engines={"vlm": OpenAIEngineOptions(base_url="http://127.0.0.1:1/v1", model="m")}
    )
    kept = actor_options(served, 1.0)
    assert (kept.ocr.threads, kept.budget.pages_in_flight) == (1, served.budget.pages_in_flight)


def test_steady_rate_leaves_out_the_workers_start() -> None:
    stats = BatchStats(started=100.0)
    # two workers up 2 s after the run's start; documents of 1 s and 2 s end at 103, 104, 106
    stats.add(Outcome(uri="a", name="a", status="ok", pages=4, seconds=1.0), now=103.0)
    stats.add(Outcome(uri="b", name="b", status="ok", pages=2, seconds=2.0), now=104.0)
    stats.add(Outcome(uri="c", name="c", status="failed", error="c: broken"), now=105.0)
    stats.add(Outcome(uri="d", name="d", status="ok", pages=4, seconds=2.0), now=106.0)
    assert stats.workers_start_s == pytest.approx(2.0)
    assert stats.steady_pages_per_second == pytest.approx(10 / 4.0)
    summary = stats.summary()
    assert summary["steady_pages_per_second"] == 2.5 and summary["workers_start_s"] == 2.0
    assert BatchStats().steady_pages_per_second == 0.0
