"""A PDF page whose text layer is far past ``classify.max_page_chars`` is not read character
by character (tens of microseconds each): only its count is kept, and the page is a scan."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from pagereader.config.options import ClassifyOptions
from pagereader.sources import open_source
from pagereader.stages.page_budget import text_layer_over, text_read_bound


def _crowded_pdf(path: Path, lines: int) -> Path:
    canvas = Canvas(str(path), pagesize=(612, 792))
    canvas.setFont("Helvetica", 4)
    for n in range(lines):
        canvas.drawString(10, 780 - (n % 190) * 4, "abcdefghij" * 10)
    canvas.save()
    return path


def test_a_layer_past_the_read_bound_keeps_only_its_count(tmp_path: Path) -> None:
    pdf = _crowded_pdf(tmp_path / "crowded.pdf", 60)  # 6,000 letters
    options = ClassifyOptions(max_page_chars=1000)
    assert text_read_bound(options) == 2000
    bounded = open_source(pdf, password=None, max_image_pixels=64_000_000, max_text_chars=2000)
    page = bounded.render(1, 72)
    assert page.lines == () and page.stats.chars >= 6000
    assert text_layer_over(page.stats.chars, options).endswith("read as a scan")
    whole = open_source(pdf, password=None, max_image_pixels=64_000_000)
    read = whole.render(1, 72)
    assert read.stats.chars == 6000 and len(read.lines) > 0
    bounded.close()
    whole.close()
