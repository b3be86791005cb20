"""``pagereader batch docs -o docs/parsed`` on a real in-process Ray cluster: the batch walks
its input lazily while it writes, and never reads the documents it wrote back as inputs, in
this run or the next."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pagereader.batch import BatchConfig, run_batch
from pagereader.config.options import Options

from fixtures import deck_of_pages

pytestmark = pytest.mark.slow  # a local Ray cluster and real engines


def test_batch_never_reads_its_outputs(local_ray: None, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    first = deck_of_pages(docs / "a.pdf", [0, 1])
    second = deck_of_pages(docs / "b.pdf", [2])
    out = docs / "parsed"  # sorted after a.pdf and b.pdf: written before the walk reaches it
    for resume in (False, False, True):
        stats = run_batch([str(docs)], str(out), Options(), BatchConfig(workers=1, resume=resume))
        assert (stats.documents, stats.failed) == ((0, 0) if resume else (2, 0))
        folders = sorted(p.name for p in out.iterdir() if p.name != "_batch")
        assert folders == ["a", "b"]
    sources = [
        json.loads((out / name / "document.json").read_text(encoding="utf-8"))["source"]
        for name in ("a", "b")
    ]
    assert sources == [str(first), str(second)]
    assert stats.skipped == 2
