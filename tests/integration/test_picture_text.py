"""Text inside a picture belongs to the picture: a slide with a screenshot of a dialog keeps
the dialog's words under the figure in document.json and in a chunk marked as picture text,
and document.md leaves them out of its prose unless asked (``--picture-text``, or
output.picture_text_in_markdown = true)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas as pdf_canvas
from typer.testing import CliRunner

from pagereader.cli.main import app
from pagereader.structure.chunks import read_chunks_jsonl

RUNNER = CliRunner()
DIALOG = ("Rename Type", "New name: Basket", "Finish    Cancel")
SLIDE = (720.0, 405.0)


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def _screenshot() -> Image.Image:
    """A dialog window drawn as pixels: a title bar, a field and two buttons."""
    image = Image.new("RGB", (900, 450), (236, 236, 236))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=40)
    draw.rectangle((0, 0, 899, 80), fill=(60, 90, 160))
    draw.text((30, 18), DIALOG[0], fill="white", font=font)
    draw.text((40, 170), DIALOG[1], fill="black", font=font)
    draw.rectangle((30, 330, 869, 420), outline=(150, 150, 150), width=3)
    draw.text((420, 350), DIALOG[2], fill="black", font=font)
    return image


def _slide(path: Path) -> None:
    canvas = pdf_canvas.Canvas(str(path), pagesize=SLIDE)
    canvas.setFont("Helvetica-Bold", 28)
    canvas.drawString(40, 350, "Renaming a class")
    canvas.setFont("Helvetica", 18)
    canvas.drawString(40, 300, "Open the refactoring menu and type the new name.")
    canvas.drawImage(ImageReader(_screenshot()), 180, 40, width=360, height=180)
    canvas.showPage()
    canvas.save()


def _parse(pdf: Path, out: Path, *flags: str) -> Path:
    """``pagereader parse`` with its default options and ``flags``."""
    result = RUNNER.invoke(app, ["parse", str(pdf), "-o", str(out), "--no-resume", *flags])
    assert result.exit_code == 0, result.output
    return out / pdf.stem


def test_text_read_inside_a_picture_stays_with_the_picture(tmp_path: Path) -> None:
    pdf = tmp_path / "slide.pdf"
    _slide(pdf)
    folder = _parse(pdf, tmp_path / "out")
    markdown = (folder / "document.md").read_text(encoding="utf-8")
    assert "Renaming a class" in markdown
    assert "<!-- figure -->" in markdown
    assert "Basket" not in markdown and "Cancel" not in markdown

    document = json.loads((folder / "document.json").read_text(encoding="utf-8"))
    figures = [b for b in document["pages"][0]["blocks"] if b["block"]["kind"] == "figure"]
    assert len(figures) == 1
    assert "Basket" in figures[0]["text"] and "Cancel" in figures[0]["text"]

    chunks = read_chunks_jsonl((folder / "chunks.jsonl").read_text(encoding="utf-8"))
    marked = [c for c in chunks if c.picture_text]
    assert len(marked) == 1
    assert marked[0].picture_text == ((1, figures[0]["block"]["order"]),)
    assert "Basket" in marked[0].text
    assert all(not c.picture_text for c in chunks if "Basket" not in c.text)


@pytest.mark.parametrize("how", ["flag", "config"])
def test_picture_text_in_markdown_when_asked(tmp_path: Path, how: str) -> None:
    pdf = tmp_path / "slide.pdf"
    _slide(pdf)
    config = tmp_path / "pagereader.toml"
    config.write_text("[output]\npicture_text_in_markdown = true\n", encoding="utf-8")
    flags = ["--picture-text"] if how == "flag" else ["--config", str(config)]
    folder = _parse(pdf, tmp_path / "out", *flags)
    markdown = (folder / "document.md").read_text(encoding="utf-8")
    figure = markdown.index("<!-- figure -->")
    assert figure < markdown.index("Basket") and figure < markdown.index("Cancel")
