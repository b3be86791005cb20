"""The real VLM answers of the shared vlm-dialects folder: each sample's name, dialect, the
repairs its parse must name and its headings, and a second reading of a raw answer made without
the parsers (markup stripped by regex) with the token F1 that compares two readings."""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from shared_data import shared


@dataclass(frozen=True)
class Sample:
    name: str
    dialect: str
    repairs: frozenset[str]
    headings: tuple[str, ...] = ()


SAMPLES = (
    Sample(
        "qwen2.5-vl/1",
        "qwenvl-html",
        frozenset({"code-fence"}),
        ("Qwen2.5 Technical Report", "Abstract"),
    ),
    Sample("qwen2.5-vl/3", "qwen-spotting", frozenset({"code-fence", "trailing-commas"})),
    Sample(
        "qwen2.5-vl/8",
        "qwenvl-html",
        frozenset({"code-fence", "preamble", "no-boxes", "repeated-answer", "incomplete-element"}),
    ),
    Sample("paddleocr-vl/3", "paddleocr-vl", frozenset({"no-boxes"})),
    Sample(
        "dots.ocr/1",
        "dots-ocr",
        frozenset({"unclosed-list"}),
        (
            "The Evolution of the Word Processor",
            "Pre-Digital Era (19th - Early 20th Century)",
            "The Birth of Word Processing (1960s - 1970s)",
            "The Rise of Personal Computers (1980s)",
        ),
    ),
    Sample(
        "deepseek-ocr/3",
        "deepseek-ocr",
        frozenset(),
        (
            "DocLayNet: A Large Human-Annotated Dataset for Document-Layout Analysis",
            "ABSTRACT",
            "CCS CONCEPTS",
            "KEYWORDS",
            "ACM Reference Format:",
        ),
    ),
    Sample(
        "deepseek-ocr/4",
        "deepseek-ocr",
        frozenset({"table-after-caption", "block-without-box"}),
        ("5.1 Hyper Parameter Optimization", "5.2 Quantitative Results"),
    ),
    Sample("olmocr/1", "olmocr", frozenset({"no-boxes"})),
    Sample("olmocr/5", "olmocr", frozenset({"no-boxes"})),
    Sample(
        "chandra/1",
        "chandra",
        frozenset(),
        ("5.1 Hyper Parameter Optimization", "5.2 Quantitative Results"),
    ),
)


def folder() -> Path:
    return shared("vlm-dialects")


def raw(sample: Sample) -> str:
    return (folder() / f"{sample.name}.raw.txt").read_text(encoding="utf-8")


def meta(sample: Sample) -> dict[str, object]:
    value = json.loads((folder() / f"{sample.name}.json").read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


# --- the second reading -------------------------------------------------------------------

_JSON_TEXT = re.compile(r'"(?:text|text_content)"\s*:\s*("(?:[^"\\]|\\.)*")')
_REGION_LINE = re.compile(r"^.*(?:<\|/det\|>|\]\])\s*$", re.M)


def reference_text(sample: Sample, text: str) -> str:
    """The answer's text with every kind of markup removed, read without the parser."""
    if sample.dialect in ("dots-ocr", "qwen-spotting"):
        return "\n".join(json.loads(s) for s in _JSON_TEXT.findall(text))
    if sample.dialect == "deepseek-ocr":
        text = _REGION_LINE.sub("", text)
    if sample.dialect == "olmocr":
        text = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)
    if sample.name == "qwen2.5-vl/8":  # the first of the two fenced answers; no <head>
        text = text.split("```html", 2)[1]
        text = re.sub(r"<head>.*?</head>", "", text, flags=re.S)
    text = re.sub(r"^```\w*$", "", text, flags=re.M)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


def tokens(text: str) -> Counter[str]:
    return Counter(re.findall(r"\w+", text.lower()))


def f1(hypothesis: Counter[str], reference: Counter[str]) -> float:
    overlap = sum((hypothesis & reference).values())
    if not overlap:
        return 0.0
    precision = overlap / sum(hypothesis.values())
    recall = overlap / sum(reference.values())
    return 2 * precision * recall / (precision + recall)
