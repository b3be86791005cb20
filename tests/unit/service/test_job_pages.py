"""The job list a page at a time: every job once, in order, while jobs are added."""

from __future__ import annotations

from pathlib import Path

from pagereader.service.jobs.store import JobStore


def test_pages_cover_every_job_once_while_jobs_are_added(tmp_path: Path) -> None:
    store = JobStore(tmp_path / "jobs.sqlite")
    for n in range(7):
        store.create(f"j{n}", f"d{n}.pdf", "ab", tmp_path / f"j{n}")
    seen: list[str] = []
    jobs, after = store.page(3)
    seen += [j.id for j in jobs]
    store.create("j7", "d7.pdf", "ab", tmp_path / "j7")  # added between two pages
    while after is not None:
        jobs, after = store.page(3, after)
        seen += [j.id for j in jobs]
    assert seen == [f"j{n}" for n in range(8)]
    assert [j.id for j in store.newest(0, 3)] == ["j7", "j6", "j5"]
    assert [j.id for j in store.newest(6, 3)] == ["j1", "j0"]
    assert store.count("queued") == 8 and store.count("running") == 0
    claimed = store.claim()
    assert claimed is not None
    assert [j.id for j in store.page(10, status="running")[0]] == [claimed.id]
    assert store.page(10, status="running")[1] is None
