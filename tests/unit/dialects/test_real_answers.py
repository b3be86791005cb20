"""Every real answer in the shared vlm-dialects folder, read by its dialect's parser and checked
against a second reading of the raw text made here (tags stripped by regex, JSON strings
pulled out by regex), against the cell counts of its raw tables, and, where the page is a PDF
with a text layer, against where the PDF itself prints a heading."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from pagereader.engines.dialects import PARSERS, SCALES, Frame, PageAnswer, parse_answer

from dialect_samples import SAMPLES, Sample, f1, folder, meta, raw, reference_text, tokens

QWEN25 = {"factor": 28, "min_pixels": 3136, "max_pixels": 12845056}
DOTS = {"factor": 28, "min_pixels": 3136, "max_pixels": 11289600}


def page_size(sample: Sample) -> tuple[float, float]:
    """The page in its own units: a PDF's points, an image's pixels; letter size where the
    sample's page is not in the folder."""
    base = folder() / sample.name
    if base.with_suffix(".pdf").exists():
        width, height = pdfium.PdfDocument(base.with_suffix(".pdf"))[0].get_size()
        return float(width), float(height)
    if base.with_suffix(".jpg").exists():
        with Image.open(base.with_suffix(".jpg")) as image:
            return float(image.width), float(image.height)
    return 612.0, 792.0


def frame(sample: Sample) -> Frame:
    """The request's frame. Qwen2.5-VL's cookbook sent the image as it is; dots.ocr's page
    was rendered at twice its point size (the render size is not recorded: the headings'
    text-layer test below checks the guess)."""
    width, height = page_size(sample)
    scale = SCALES[sample.dialect]
    if sample.name.startswith("qwen2.5-vl"):
        size = (int(width), int(height))
        return Frame.for_request((width, height), size, scale=scale, **QWEN25)
    if sample.dialect == "dots-ocr":
        size = (round(width * 2), round(height * 2))
        return Frame.for_request((width, height), size, scale=scale, **DOTS)
    return Frame(page_width=width, page_height=height, input_width=1, input_height=1, scale=scale)


def parsed(sample: Sample) -> PageAnswer:
    return parse_answer(sample.dialect, raw(sample), frame(sample))


def block_words(answer: PageAnswer) -> str:
    parts: list[str] = []
    for block in answer.blocks:
        if block.table is not None:
            parts.extend(cell.text for cell in block.table.cells)
        else:
            parts.append(block.text)
    return "\n".join(parts)


# --- tests --------------------------------------------------------------------------------


def test_every_sample_in_the_folder_is_checked() -> None:
    held = {str(p.relative_to(folder()))[: -len(".raw.txt")] for p in folder().rglob("*.raw.txt")}
    assert held == {s.name for s in SAMPLES}
    assert {s.dialect for s in SAMPLES} <= set(PARSERS)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_text_matches_the_answer_with_markup_removed(sample: Sample) -> None:
    answer = parsed(sample)
    assert answer.parsed and answer.raw == raw(sample)
    score = f1(tokens(block_words(answer)), tokens(reference_text(sample, raw(sample))))
    assert score >= 0.95, score


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_repairs_are_named(sample: Sample) -> None:
    assert parsed(sample).repairs == sample.repairs


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_every_box_is_inside_the_page(sample: Sample) -> None:
    answer, page = parsed(sample), frame(sample)
    assert answer.blocks
    for block in answer.blocks:
        x0, y0, x1, y1 = block.bbox
        assert 0 <= x0 <= x1 <= page.page_width and 0 <= y0 <= y1 <= page.page_height
    boxed = "data-bbox" in raw(sample) or "bbox" in raw(sample) or "<|det|>" in raw(sample)
    assert answer.located == boxed


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_headings_are_headings(sample: Sample) -> None:
    titles = [b.text for b in parsed(sample).blocks if b.kind == "title"]
    if sample.dialect in ("chandra", "deepseek-ocr", "dots-ocr"):
        assert titles == list(sample.headings)
    if sample.dialect == "qwenvl-html":  # the <h1>-<h6> of the (first) answer
        text = raw(sample).split("```html", 2)[1]
        marked = re.findall(r"<h[1-6][^>]*>(.*?)</h[1-6]>", text, flags=re.S)
        assert titles == [re.sub(r"<[^>]+>", "", h).strip() for h in marked]
        assert len(titles) == (2 if sample.name == "qwen2.5-vl/1" else 6)
    for heading in sample.headings:
        assert heading in titles and heading in raw(sample)


def _raw_tables(text: str) -> list[str]:
    return re.findall(r"<table\b.*?(?:</table>|\Z)", text, flags=re.S | re.I)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_tables_are_tables_with_the_raw_cells(sample: Sample) -> None:
    tables = [b for b in parsed(sample).blocks if b.kind == "table"]
    expected = _raw_tables(raw(sample)) if sample.dialect != "qwenvl-html" else []
    assert len(tables) == len(expected)
    for block, markup in zip(tables, expected, strict=True):
        assert block.table is not None and block.html is not None
        assert len(block.table.cells) == len(re.findall(r"<t[dh]\b", markup))
        assert block.table.rows == len(re.findall(r"<tr\b", markup))


def _printed_at(pdf: Path, text: str) -> tuple[float, float]:
    """The middle of where the PDF's text layer prints ``text``, top-left origin."""
    page = pdfium.PdfDocument(pdf)[0]
    height = page.get_size()[1]
    textpage = page.get_textpage()
    found = textpage.search(text).get_next()
    assert found is not None, text
    first = textpage.get_charbox(found[0])
    last = textpage.get_charbox(found[0] + found[1] - 1)
    return (first[0] + last[2]) / 2, height - (first[3] + last[1]) / 2


@pytest.mark.parametrize(
    ("name", "heading"),
    [
        ("dots.ocr/1", "The Evolution of the Word Processor"),
        ("dots.ocr/1", "The Rise of Personal Computers (1980s)"),
        ("chandra/1", "5.1 Hyper Parameter Optimization"),
        ("chandra/1", "5.2 Quantitative Results"),
        ("deepseek-ocr/4", "5.1 Hyper Parameter Optimization"),
        ("deepseek-ocr/4", "5.2 Quantitative Results"),
    ],
)
def test_a_heading_box_holds_where_the_pdf_prints_it(name: str, heading: str) -> None:
    sample = next(s for s in SAMPLES if s.name == name)
    block = next(b for b in parsed(sample).blocks if b.text == heading)
    x, y = _printed_at(folder() / f"{name}.pdf", heading)
    x0, y0, x1, y1 = block.bbox
    assert x0 <= x <= x1 and y0 <= y <= y1, (block.bbox, (x, y))


def test_the_qwen_frame_is_the_cookbooks_resized_input() -> None:
    for name in ("qwen2.5-vl/1", "qwen2.5-vl/3"):
        sample = next(s for s in SAMPLES if s.name == name)
        size = meta(sample)["image_size_if_known"]
        assert isinstance(size, dict)
        page = frame(sample)
        assert (page.input_width, page.input_height) == (
            size["model_input_width"],
            size["model_input_height"],
        )
    sample = SAMPLES[0]
    first = parsed(sample).blocks[0]
    page = frame(sample)
    sx, sy = page.page_width / page.input_width, page.page_height / page.input_height
    assert first.bbox == pytest.approx((310 * sx, 94 * sy, 658 * sx, 132 * sy))


def test_olmocr_front_matter_is_kept() -> None:
    answer = parsed(next(s for s in SAMPLES if s.name == "olmocr/5"))
    assert answer.meta["is_table"] == "True" and answer.meta["primary_language"] == "en"
    assert answer.blocks[0].text.startswith("Annex I: Annual mid-year population")
