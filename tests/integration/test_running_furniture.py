"""Headers and footers are what repeats across pages, or page numbers; a body line the layout
placed at a page's edge stays in the Markdown. PDFs made here with reportlab (a running header,
a running footer and page numbers on every page, one body line in the footer band of one page;
a deck's slide numbers and footer) and a real slide deck (../shared/eval/real_slides: the
table's last row at the slide's bottom edge). Each block left out of document.md says why in
document.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from pagereader.cli.main import app
from pagereader.document.running import CHECK

from fixtures.running_lines import (
    DECK_FOOTER,
    LAST_LINE,
    LAST_LINE_PAGE,
    RUNNING_FOOTER,
    RUNNING_HEADER,
    SLIDE_TITLES,
    page_number,
    write_numbered_slides,
    write_running_lines,
)
from shared_data import shared

RUNNER = CliRunner()


def _parse(pdf: Path, out: Path, *flags: str) -> tuple[str, dict[str, Any]]:
    result = RUNNER.invoke(app, ["parse", str(pdf), "-o", str(out), "--no-resume", *flags])
    assert result.exit_code == 0, result.output
    folder = out / pdf.stem
    markdown = (folder / "document.md").read_text(encoding="utf-8")
    return markdown, json.loads((folder / "document.json").read_text(encoding="utf-8"))


def _blocks(document: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    return [(page["index"], block) for page in document["pages"] for block in page["blocks"]]


def _reasons(block: dict[str, Any]) -> list[str]:
    return [f["message"] for f in block["verdict"]["findings"] if f["check"] == CHECK]


def test_running_lines_leave_the_markdown_marked_and_a_body_line_at_the_edge_stays(
    tmp_path: Path,
) -> None:
    pages = 3
    markdown, document = _parse(write_running_lines(tmp_path / "rules.pdf", pages), tmp_path)
    assert LAST_LINE in markdown
    last = [(i, b) for i, b in _blocks(document) if b["text"].strip() == LAST_LINE]
    assert [i for i, _ in last] == [LAST_LINE_PAGE]
    assert last[0][1]["block"]["kind"] == "text"
    assert "no other page repeats it" in " ".join(_reasons(last[0][1]))
    # the line ends its page's Markdown, after the page's last article
    page_two = markdown.split(f"<!-- page {LAST_LINE_PAGE} -->")[1].split("<!-- page")[0]
    assert page_two.strip().endswith(LAST_LINE)

    running = {RUNNING_HEADER: "header", RUNNING_FOOTER: "footer"}
    running.update({page_number(n, pages): "footer" for n in range(1, pages + 1)})
    for text, kind in running.items():
        assert text not in markdown
        found = [(i, b) for i, b in _blocks(document) if b["text"].strip() == text]
        assert found, f"{text!r} is not in document.json"
        for _, block in found:
            assert block["block"]["kind"] == kind
            assert _reasons(block), f"{text!r} left the Markdown without a reason"
            assert block["verdict"]["outcome"] == "accept"
    header = next(b for _, b in _blocks(document) if b["text"].strip() == RUNNING_HEADER)
    assert _reasons(header) == ["running header: the same text at this place on page(s) 2, 3"]


def test_a_single_page_leaves_its_edge_lines_out_for_review(tmp_path: Path) -> None:
    """One page shows no repetition: its header and footer stay out of document.md (as a page
    cut from a journal wants), flagged in document.json and listed in review.md."""
    markdown, document = _parse(write_running_lines(tmp_path / "one.pdf", 1), tmp_path)
    review = (tmp_path / "one" / "review.md").read_text(encoding="utf-8")
    for text in (RUNNING_HEADER, RUNNING_FOOTER):
        assert text not in markdown
        block = next(b for _, b in _blocks(document) if b["text"].strip() == text)
        assert block["verdict"]["outcome"] == "review"
        assert "on the only page read" in _reasons(block)[0]
        assert text in review
    number = page_number(1, 1)
    assert number not in markdown
    block = next(b for _, b in _blocks(document) if b["text"].strip() == number)
    assert block["block"]["kind"] == "footer"
    assert block["verdict"]["outcome"] == "accept"
    assert _reasons(block) == ["a page number: running furniture, left out of the Markdown"]


def test_a_deck_keeps_its_slide_numbers_and_leaves_its_running_footer(tmp_path: Path) -> None:
    markdown, document = _parse(write_numbered_slides(tmp_path / "deck.pdf"), tmp_path)
    assert DECK_FOOTER not in markdown
    for n in range(1, len(SLIDE_TITLES) + 1):
        slide = markdown.split(f"<!-- page {n} -->")[1].split("<!-- page")[0]
        assert slide.strip().endswith(f"\n\n{n}"), slide
    for _, block in _blocks(document):
        if block["text"].strip() == DECK_FOOTER:
            assert block["block"]["kind"] == "footer"
            assert _reasons(block)[0].startswith("running footer")
        if block["text"].strip().isdigit():
            assert block["block"]["kind"] == "text"
            assert _reasons(block) == ["a slide number: kept, as the slide shows it"]


def test_a_slides_last_table_row_at_the_bottom_edge_stays(tmp_path: Path) -> None:
    deck = shared("eval", "real_slides", "poi-cnia-agm.pdf")
    reference = shared("eval", "real_slides", "poi-cnia-agm.p12.ref.txt").read_text("utf-8")
    markdown, document = _parse(deck, tmp_path, "--pages", "11-13")
    slide = markdown.split("<!-- page 12 -->")[1].split("<!-- page 13 -->")[0]
    last_row = [line.strip() for line in reference.splitlines() if line.strip()][-2:]
    assert last_row == ["GST/HST for 2009 & 2010", "CNA membership fees  = $226"]
    for cell in last_row:
        assert " ".join(cell.split()) in slide
    for index, block in _blocks(document):
        if block["block"]["kind"] in ("header", "footer") and block["text"].strip():
            assert _reasons(block), f"page {index}: {block['text']!r} left without a reason"
