"""Rules for what a PDF's text layer says, through the real ``pagereader parse``: short slides
are read, hyphens at a wrap are judged, right-to-left text reads in logical order, text that
looks like HTML stays visible, mojibake is not trusted, side-by-side columns are read one at a
time, and letters outside the BMP survive whole. Every input is made here by code."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from adversarial.conftest import run_cli
from adversarial.documents import _cmap, _one_page_pdf

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
SLIDE = (720.0, 405.0)


def _parse(pdf: Path, out: Path) -> dict[str, Any]:
    done = run_cli("parse", pdf, "-o", out)
    assert done.returncode == 0, done.stderr
    document: dict[str, Any] = json.loads((out / pdf.stem / "document.json").read_text("utf-8"))
    document["markdown"] = (out / pdf.stem / "document.md").read_text("utf-8")
    return document


def _body(document: dict[str, Any]) -> str:
    """The Markdown without the page comments, on one line."""
    lines = [ln for ln in document["markdown"].splitlines() if not ln.startswith("<!-- page")]
    return " ".join(" ".join(lines).split())


def _backdrop(canvas: Canvas, size: tuple[float, float], shade: int) -> None:
    """A picture over the whole page (a slide's background photo)."""
    image = Image.new("RGB", (320, 180), (shade, shade, shade))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    canvas.drawImage(ImageReader(io.BytesIO(buffer.getvalue())), 0, 0, *size)


def _short_slides(path: Path) -> Path:
    """Title slide, section divider, closing slide: a few characters each."""
    canvas = Canvas(str(path), pagesize=SLIDE)
    canvas.setFont("Helvetica", 12)
    canvas.drawString(330, 200, "Cycle")
    canvas.showPage()
    canvas.setFont("Helvetica-Bold", 40)
    canvas.drawString(320, 190, "Q&A")
    canvas.showPage()
    _backdrop(canvas, SLIDE, 250)  # a near-white photo; the word is set in white over it
    canvas.setFillColorRGB(1, 1, 1)
    canvas.setFont("Helvetica", 20)
    canvas.drawString(320, 190, "Thanks")
    canvas.showPage()
    canvas.setFont("Helvetica", 28)
    canvas.drawString(350, 190, "3")
    canvas.showPage()
    canvas.save()
    return path


def test_short_clean_text_layers_are_read_and_no_page_with_text_is_empty(tmp_path: Path) -> None:
    document = _parse(_short_slides(tmp_path / "short.pdf"), tmp_path / "O")
    pages = document["pages"]
    words = ["Cycle", "Q&A", "Thanks", "3"]
    assert document["status"] == "ok"
    for page, word in zip(pages, words, strict=True):
        text = "".join(block["text"] or "" for block in page["blocks"])
        assert text.strip() == word, (word, page["decision"]["reasons"])
        # the section divider's word is set bold at over three times the other pages' size
        assert page["markdown"].strip() == ("# Q&A" if word == "Q&A" else word)
    assert pages[0]["decision"]["page_class"] == "digital"
    assert "short but clean" in pages[0]["decision"]["reasons"][0]
    # the white word over a page picture goes to OCR, which reads nothing: the layer wins
    reasons = pages[2]["decision"]["reasons"]
    assert pages[2]["decision"]["page_class"] == "scan"
    assert any("the text layer holds 6" in reason for reason in reasons), reasons


def _wrapped_pdf(path: Path, lines: list[str]) -> Path:
    canvas = Canvas(str(path), pagesize=(612, 792))
    canvas.setFont("Helvetica", 12)
    for index, line in enumerate(lines):
        canvas.drawString(72, 700 - 14 * index, line)
    canvas.save()
    return path


def test_hyphen_at_a_wrap_is_kept_in_compounds_and_dropped_in_broken_words(
    tmp_path: Path,
) -> None:
    lines = [
        "The decision layer sends every dense-",
        "page to the stronger engine; a hyph-",
        "enated word is joined, since hyphenated is",
        "printed whole too. The state-",
        "of-the-art reader keeps COVID-",
        "19 and the connec-",
        "tion as printed on each slide.",
    ]
    body = _body(_parse(_wrapped_pdf(tmp_path / "wrap.pdf", lines), tmp_path / "O"))
    assert "every dense-page to" in body  # a compound: both parts are words
    assert "a hyphenated word" in body  # the page prints the word whole
    assert "state-of-the-art" in body
    assert "COVID-19 and" in body  # a digit after the hyphen
    assert "the connection as" in body  # -tion is no word of its own
    assert "densepage" not in body


@pytest.mark.skipif(not DEJAVU.exists(), reason="needs DejaVu Sans (Hebrew and Arabic glyphs)")
def test_right_to_left_text_layer_reads_in_logical_order(tmp_path: Path) -> None:
    """The glyphs are written in logical order and drawn left to right (a producer without
    bidi support); PDFium takes that as visual order and hands the line over reversed."""
    pdfmetrics.registerFont(TTFont("DejaVuSans", str(DEJAVU)))
    path = tmp_path / "rtl.pdf"
    canvas = Canvas(str(path), pagesize=(612, 792))
    canvas.setFont("DejaVuSans", 14)
    canvas.drawString(72, 700, "שלום עולם")
    canvas.drawString(72, 670, "בשנת 2020 היה")
    canvas.drawString(72, 640, "اللغة العربية جميلة")
    canvas.setFont("Helvetica", 12)
    canvas.drawString(72, 610, "An English line stays as it is, left to right.")
    canvas.save()
    body = _body(_parse(path, tmp_path / "O"))
    assert "שלום עולם" in body
    assert "בשנת 2020 היה" in body
    assert "اللغة العربية جميلة" in body
    assert "An English line stays as it is, left to right." in body
    assert "םולש" not in body


def test_text_that_looks_like_html_stays_visible_in_markdown(tmp_path: Path) -> None:
    lines = ["The loop runs <infinite do loop> until stopped.", "R&D writes &amp; and 3 < 5."]
    document = _parse(_wrapped_pdf(tmp_path / "html.pdf", lines), tmp_path / "O")
    body = _body(document)
    assert "runs &lt;infinite do loop> until" in body
    assert "R&D writes &amp;amp; and 3 < 5." in body
    blocks = document["pages"][0]["blocks"]  # the JSON keeps the text as printed
    assert "<infinite do loop>" in " ".join(block["text"] for block in blocks)


def test_mojibake_text_layer_is_garbage_to_the_decision_layer(tmp_path: Path) -> None:
    """新建文本文档 saved in GBK and read as Latin-1: every glyph valid, every one wrong."""
    mojibake = "新建文本文档".encode("gbk").decode("latin-1")
    assert mojibake == "ÐÂ½¨ÎÄ±¾ÎÄµµ"
    path = tmp_path / "caption.pdf"
    canvas = Canvas(str(path), pagesize=SLIDE)
    canvas.setFont("Helvetica", 18)
    canvas.drawString(100, 200, mojibake)
    canvas.save()
    page = _parse(path, tmp_path / "O")["pages"][0]
    decision = page["decision"]
    assert decision["features"]["garbage_ratio"] == 1.0
    assert decision["page_class"] == "scan"
    assert "garbage" in decision["reasons"][0]


def test_mojibake_caption_on_a_good_page_is_named_in_a_warning(tmp_path: Path) -> None:
    mojibake = "新建文本文档".encode("gbk").decode("latin-1")
    lines = [f"Line {n} of ordinary text keeps the text layer trusted." for n in range(12)]
    path = _wrapped_pdf(tmp_path / "good.pdf", [*lines, "", "", mojibake])
    page = _parse(path, tmp_path / "O")["pages"][0]
    assert page["decision"]["page_class"] == "digital"
    assert any("mojibake" in w and "ÐÂ½¨" in w for w in page["warnings"]), page["warnings"]


def _columns_pdf(path: Path, gap: float) -> Path:
    """Two text boxes side by side, ``gap`` points apart, drawn row by row across both (as a
    slide export writes them)."""
    left = ["Revenue grew in every", "region this year and", "margins held steady"]
    right = ["Costs fell after the", "plant was closed in", "the second quarter"]
    canvas = Canvas(str(path), pagesize=SLIDE)
    canvas.setFont("Helvetica", 14)
    width = max(stringWidth(text, "Helvetica", 14) for text in left)
    for row, (a, b) in enumerate(zip(left, right, strict=True)):
        canvas.drawString(60, 300 - 18 * row, a)
        canvas.drawString(60 + width + gap, 300 - 18 * row, b)
    canvas.save()
    return path


@pytest.mark.parametrize("gap", [12.0, 20.0])
def test_side_by_side_columns_are_read_one_at_a_time(tmp_path: Path, gap: float) -> None:
    body = _body(_parse(_columns_pdf(tmp_path / "columns.pdf", gap), tmp_path / "O"))
    left = "Revenue grew in every region this year and margins held steady"
    right = "Costs fell after the plant was closed in the second quarter"
    assert left in body
    assert right in body
    assert body.index(left) < body.index(right)


def test_gothic_word_from_the_text_layer_survives_whole(tmp_path: Path) -> None:
    """𐌲𐌿𐍄𐌹𐍃𐌺 (gutisk): six letters outside the BMP, each a UTF-16 surrogate pair in the
    ToUnicode map and in PDFium's answer."""
    word = "𐌲𐌿𐍄𐌹𐍃𐌺"
    targets = {chr(ord("A") + i): ch.encode("utf-16-be").hex().upper() for i, ch in enumerate(word)}
    path = _one_page_pdf(tmp_path / "gothic.pdf", b"ABCDEF", _cmap(targets))
    document = _parse(path, tmp_path / "O")
    assert word in document["markdown"]
    assert word in "".join(block["text"] for block in document["pages"][0]["blocks"])
