"""Characters outside the BMP round-trip through every output and the page cache; lone
surrogates are replaced and said; an exception inside one document costs only that document."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

import pytest
from typer.testing import CliRunner

from adversarial.documents import GOTHIC, astral_pdf, mapped_pdf, text_pdf
from pagereader.cli.app import app
from pagereader.render.writer import DocumentWriter
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

    def finish_or_fail(
        self: DocumentWriter, result: DocumentResult, *args: float
    ) -> DocumentResult:
        if self.folder.name == "bad":
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
