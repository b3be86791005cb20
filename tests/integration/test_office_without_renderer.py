"""PPTX and DOCX with no LibreOffice installed: read from their XML by the real CLI, with a
warning that says what is missing; and a file whose name lies about its type, read by its bytes.

The renderer is hidden from the child process: PAGEREADER_SOFFICE names a binary that does not
exist (settings.soffice_binary, which find_soffice then trusts alone) and PATH holds only the
interpreter's folder."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pptx import Presentation

from pagereader.config.options import Options
from pagereader.pipeline import parse
from pagereader.text.tables import read_markdown_tables, slot_rows

from fixtures.docx_documents import (
    BULLETS,
    FOOTNOTE,
    HEADING_1,
    HEADING_2,
    NUMBERED,
    PICTURE_ALT,
    TABLE,
    TITLE,
    build_docx,
)

ROOT = Path(__file__).parents[2]
DECK = ROOT / "examples" / "deck.pptx"
SCAN = ROOT / "examples" / "scan.png"
MISSING = "LibreOffice not found"


def parse_without_renderer(path: Path, out: Path) -> Path:
    """Run ``pagereader parse`` with no LibreOffice to be found; the document's folder."""
    env = {
        **os.environ,
        "PAGEREADER_SOFFICE": str(out / "no-such-dir" / "soffice"),
        "PATH": str(Path(sys.executable).parent),
        "COLUMNS": "200",
    }
    done = subprocess.run(
        [sys.executable, "-m", "pagereader", "parse", str(path), "-o", str(out), "--no-resume"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    assert "Traceback" not in done.stderr
    assert MISSING in done.stderr  # the run's own report names it too
    return out / path.stem


def _warned(folder: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((folder / "document.json").read_text(encoding="utf-8"))
    assert document["status"] == "ok"
    assert any(MISSING in w and "apt-get install" in w for w in document["warnings"])
    assert MISSING in (folder / "review.md").read_text(encoding="utf-8")
    # nothing claims to show the page: no overlay drawn on a blank page, no overlay scale
    assert not (folder / "pages").exists() or not any((folder / "pages").iterdir())
    assert all(page["overlay_scale"] is None for page in document["pages"])
    return document


def test_deck_is_read_from_its_xml_with_a_warning(tmp_path: Path) -> None:
    assert shutil.which("soffice", path=str(Path(sys.executable).parent)) is None
    folder = parse_without_renderer(DECK, tmp_path)
    document = _warned(folder)
    deck = Presentation(str(DECK))  # a second reader of the deck, for the expected titles
    titles = [slide.shapes.title.text for slide in deck.slides if slide.shapes.title is not None]
    assert len(titles) == len(deck.slides) == len(document["pages"])
    markdown = (folder / "document.md").read_text(encoding="utf-8")
    places = [markdown.index(f"# {title}\n") for title in titles]
    assert places == sorted(places)  # every slide's title, in slide order
    width = float(deck.slide_width or 0) / 12700
    assert [p["width"] for p in document["pages"]] == [width] * len(titles)


def test_docx_is_read_from_its_xml_with_headings_lists_and_a_table(tmp_path: Path) -> None:
    built = build_docx(tmp_path / "report.docx")
    folder = parse_without_renderer(built.path, tmp_path / "out")
    document = _warned(folder)
    assert len(document["pages"]) == built.pages
    assert document["pages"][0]["width"] == round(11906 / 20, 2)
    markdown = (folder / "document.md").read_text(encoding="utf-8")
    lines = markdown.splitlines()
    assert f"# {TITLE}" in lines
    assert all(f"## {heading}" in lines for heading in HEADING_1)
    assert f"### {HEADING_2}" in lines
    tables = read_markdown_tables(markdown)
    assert [slot_rows(t) for t in tables] == [[list(row) for row in TABLE]]
    assert [f"{n}. {item}" for n, item in enumerate(NUMBERED, start=1)] == [
        line for line in lines if line[:2] in ("1.", "2.")
    ]
    assert all(f"- {item}" in lines for item in BULLETS)
    assert f"<!-- figure: {PICTURE_ALT} -->" in lines
    assert any(FOOTNOTE in line for line in lines)
    second = markdown[markdown.index("<!-- page 2 -->") :]
    assert f"## {HEADING_1[1]}" in second and HEADING_1[0] not in second


def test_png_named_pdf_is_read_as_the_png_it_is(tmp_path: Path) -> None:
    named = tmp_path / "scan.pdf"
    shutil.copyfile(SCAN, named)
    result = parse(named, Options())
    assert result.status == "ok", result.errors
    assert any("PNG image" in w and "not a PDF" in w for w in result.warnings)
    expected = (ROOT / "examples" / "scan.txt").read_text(encoding="utf-8").split()
    read = result.markdown.split()
    assert sum(word in read for word in expected) >= 0.8 * len(expected)


def test_docx_named_pptx_is_read_as_a_docx(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAGEREADER_SOFFICE", str(tmp_path / "no-such-dir" / "soffice"))
    built = build_docx(tmp_path / "report.docx")
    named = built.path.rename(tmp_path / "report.pptx")
    result = parse(named, Options())
    assert result.status == "ok", result.errors
    assert any("a DOCX document, not a PPTX deck" in w for w in result.warnings)
    assert any(MISSING in w for w in result.warnings)
    assert f"# {TITLE}" in result.markdown.splitlines()
