"""A new output format is one view and one registry entry: the writer writes it beside the
others, from the same finished document, in the same unit, and records its failure."""

from __future__ import annotations

import json
from pathlib import Path

from pagereader.config.options import Options
from pagereader.document.finish import PagesRead, finish_document
from pagereader.document.outputs import OUTPUTS, Finished, Output
from pagereader.document.writer import DocumentWriter
from pagereader.render.files import OutputFile
from pagereader.render.markdown import page_text
from pagereader.types import Block, BlockResult, DocumentResult, PageResult

PLAIN = OutputFile("document.txt", "text/plain; charset=utf-8")


def plain_view(finished: Finished) -> str:
    """Every page's plain text, pages apart by a blank line."""
    return "\n\n".join(page_text(page.blocks) for page in finished.result.pages) + "\n"


def _document() -> DocumentResult:
    lines = ("Lease terms", "• The tenant shall pay the rent.", "Article 9 applies.")
    kinds = ("title", "list", "text")
    blocks = tuple(
        BlockResult(
            block=Block(kind=kind, bbox=(10.0, 10.0 + 30 * i, 300.0, 30.0 + 30 * i), order=i),
            text=text,
        )
        for i, (kind, text) in enumerate(zip(kinds, lines, strict=True))
    )
    page = PageResult(index=1, width=595.0, height=842.0, blocks=blocks)
    read = PagesRead(file="lease.pdf", local="lease.pdf", page_count=1, pages=(page,))
    return finish_document(read, Options())


def test_a_registered_format_is_written_with_the_others(tmp_path: Path) -> None:
    outputs = OUTPUTS.plus(Output(PLAIN, plain_view))
    assert outputs.file("document.txt") == PLAIN and OUTPUTS.file("document.txt") is None
    folder = tmp_path / "lease"
    with DocumentWriter(folder, Options(), outputs) as writer:
        result = writer.finish(_document(), 5.0, 1.0)
    assert result.status == "ok"
    text = (folder / "document.txt").read_text(encoding="utf-8")
    assert text == "Lease terms\nThe tenant shall pay the rent.\nArticle 9 applies.\n"
    written = {output.name for output in OUTPUTS} | {PLAIN.name}
    assert {p.name for p in folder.iterdir()} == written


def test_a_format_whose_view_fails_is_an_error_of_the_document(tmp_path: Path) -> None:
    def broken(finished: Finished) -> str:
        raise ValueError("no plain text")

    folder = tmp_path / "lease"
    with DocumentWriter(folder, Options(), OUTPUTS.plus(Output(PLAIN, broken))) as writer:
        result = writer.finish(_document(), 5.0, 1.0)
    assert result.status == "partial" and not (folder / "document.txt").exists()
    errors = json.loads((folder / "document.json").read_text(encoding="utf-8"))["errors"]
    assert errors[0]["message"] == "cannot make document.txt: ValueError: no plain text"
    assert "document.txt" in (folder / "review.md").read_text(encoding="utf-8")
