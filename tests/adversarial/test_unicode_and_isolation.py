"""Characters outside the BMP round-trip through every output and the page cache; lone
surrogates are replaced and said; an exception inside one document costs only that document."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess
from typing import Any

import pytest
from PIL import Image
from pptx import Presentation
from pptx.util import Inches
from typer.testing import CliRunner

from adversarial.documents import GOTHIC, astral_pdf, mapped_pdf, text_pdf
from pagereader.cli.main import app
from pagereader.document.writer import DocumentWriter
from pagereader.structure.chunks import read_chunks_jsonl
from pagereader.types import DocumentResult

Cli = Callable[..., CompletedProcess[str]]


def _document(folder: Path) -> dict[str, object]:
    document: dict[str, object] = json.loads((folder / "document.json").read_text(encoding="utf-8"))
    return document


def test_astral_text_in_every_output_and_the_cache(tmp_path: Path, cli: Cli) -> None:
    gothic = astral_pdf(tmp_path / "in" / "gothic.pdf")
    others = [text_pdf(tmp_path / "in" / f"other{n}.pdf", title=f"Other{n}") for n in (1, 2, 3)]
    out = tmp_path / "O"
    done = cli("parse", gothic, *others, "-o", out)
    assert done.returncode == 0, done.stderr
    letters = GOTHIC + GOTHIC  # the glyph codes ABAB
    first_md = (out / "gothic" / "document.md").read_text(encoding="utf-8")
    first_json = (out / "gothic" / "document.json").read_text(encoding="utf-8")
    assert letters in first_md
    assert letters in first_json
    assert "\ufffd" not in first_json
    for n in (1, 2, 3):
        assert f"Other{n} page 1" in (out / f"other{n}" / "document.md").read_text("utf-8")
    # the second run reads every page back from the cache: the same text
    again = cli("parse", gothic, "-o", out, "--debug")
    assert again.returncode == 0, again.stderr
    assert (out / "gothic" / "document.md").read_text(encoding="utf-8") == first_md
    assert letters in (out / "gothic" / "document.json").read_text(encoding="utf-8")


def test_lone_surrogate_is_replaced_and_said(tmp_path: Path, cli: Cli) -> None:
    broken = astral_pdf(tmp_path / "broken.pdf", lone_surrogate=True)
    out = tmp_path / "O"
    done = cli("parse", broken, "-o", out)
    assert done.returncode == 0, done.stderr
    document = _document(out / "broken")
    page = document["pages"][0]  # type: ignore[index]
    assert any("U+FFFD" in warning for warning in page["warnings"])
    text = "".join(block["text"] or "" for block in page["blocks"])
    assert GOTHIC + GOTHIC + "\ufffd" in text


@pytest.fixture
def failing_writer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer of the document named ``bad`` raises an unexpected exception."""
    finish = DocumentWriter.finish

    def finish_or_fail(self: DocumentWriter, result: DocumentResult, *args: Any) -> DocumentResult:
        if self.final.name == "bad":
            raise RuntimeError("injected fault")
        return finish(self, result, *args)

    monkeypatch.setattr(DocumentWriter, "finish", finish_or_fail)


@pytest.mark.usefixtures("failing_writer")
def test_a_fault_in_one_document_spares_the_others(tmp_path: Path) -> None:
    bad = text_pdf(tmp_path / "in" / "bad.pdf", title="Bad")
    good = [text_pdf(tmp_path / "in" / f"good{n}.pdf", title=f"Good{n}") for n in (1, 2)]
    out = tmp_path / "O"
    result = CliRunner().invoke(app, ["parse", str(bad), *map(str, good), "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)
    assert "injected fault" in result.output
    for n in (1, 2):
        assert f"Good{n} page 1" in (out / f"good{n}" / "document.md").read_text("utf-8")


def test_control_characters_of_a_text_layer_are_removed_and_said(tmp_path: Path, cli: Cli) -> None:
    """A ToUnicode map to U+0000, U+0002, U+FFFE and an unpaired U+202E: before, document.md
    held raw NUL bytes, U+0002 and U+FFFE became "-" and the override reversed what followed."""
    targets = {"A": "0041", "B": "0000", "C": "0002", "D": "FFFE", "E": "202E", "F": "0042"}
    forged = mapped_pdf(tmp_path / "forged.pdf", targets, "ABACADAEFA")
    out = tmp_path / "O"
    done = cli("parse", forged, "-o", out)
    assert done.returncode == 0, done.stderr
    markdown = (out / "forged" / "document.md").read_bytes()
    assert b"\x00" not in markdown
    text = markdown.decode("utf-8")
    assert not any(ch in text for ch in "\x02\ufffe\u202e")
    assert "AAAAB" in text and "A-A" not in text
    page = _document(out / "forged")["pages"][0]  # type: ignore[index]
    [note] = [w for w in page["warnings"] if "control or format" in w]
    assert note.startswith("control or format characters removed from the text")
    assert "U+0000, U+0002, U+202E, U+FFFE" in note
    assert "control or format characters removed" in done.stderr


def _hostile_deck(path: Path, hostile: str) -> Path:
    """Two slides, each with a title, notes and the same logo, all holding ``hostile``."""
    deck = Presentation()
    logo = io.BytesIO()
    Image.new("RGB", (60, 40), "navy").save(logo, format="PNG")
    for number in (1, 2):
        slide = deck.slides.add_slide(deck.slide_layouts[5])
        slide.shapes.title.text = f"Slide {number} {hostile}title"
        slide.notes_slide.notes_text_frame.text = f"Notes {hostile}here"
        logo.seek(0)
        picture = slide.shapes.add_picture(logo, Inches(8.6), Inches(0.1), Inches(1), Inches(0.6))
        picture._element.nvPicPr.cNvPr.set("descr", f"Acme {hostile}logo")
    deck.save(str(path))
    return path


@pytest.mark.libreoffice
def test_a_decks_own_text_is_cleaned_in_every_output(tmp_path: Path, cli: Cli) -> None:
    """An unpaired U+202E and the C1 control U+009B (a terminal's CSI) in a deck's titles,
    notes and a logo's alt text, all of which XML may hold: none reaches an output. Before,
    the alt text of the deck's recurring logo came into document.json after cleaning."""
    hostile = "\u202e\u009b31m"
    deck = _hostile_deck(tmp_path / "hostile.pptx", hostile)
    out = tmp_path / "O"
    done = cli("parse", deck, "-o", out)
    assert done.returncode == 0, done.stderr
    folder = out / "hostile"
    chunks = read_chunks_jsonl((folder / "chunks.jsonl").read_text("utf-8"))
    texts = {"document.md": (folder / "document.md").read_text("utf-8")}
    texts["chunks.jsonl"] = "\n".join(chunk.text for chunk in chunks)
    document = _document(folder)
    texts["document.json"] = json.dumps(document, ensure_ascii=False)
    for name, text in texts.items():
        assert "\u202e" not in text and "\u009b" not in text, name
    assert "Slide 2 31mtitle" in texts["document.md"] and "Notes 31mhere" in texts["document.md"]
    [logo] = document["deck"]["recurring_pictures"]  # type: ignore[index]
    assert logo["alt_text"] == "Acme 31mlogo"
