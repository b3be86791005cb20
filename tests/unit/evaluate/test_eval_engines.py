"""Documents evaluated at once each read with their own page selection: the options of one
parse are never another's (they were assigned onto one shared Runtime, so a document whose
parse started later took the selection of the document asked for after it)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from adversarial.documents import text_pdf
from pagereader.config.options import Options
from pagereader.evaluate.engines import PipelineEngine


def test_two_documents_read_at_once_keep_their_own_pages(tmp_path: Path) -> None:
    first = text_pdf(tmp_path / "first.pdf", pages=3, title="First")
    second = text_pdf(tmp_path / "second.pdf", pages=3, title="Second")
    engine = PipelineEngine(Options(), {first: {1}, second: {3}})

    async def both() -> list[str]:
        return list(await asyncio.gather(engine(first, 1), engine(second, 3)))

    one, three = asyncio.run(both())
    assert "First page 1" in one and "Second page 3" in three
