"""A Taiwan statute scan reads in the statute's own forms: the embedded OCR's simplified and
variant characters (规, 内, 衆 on these pages) are written in Taiwan standard form, each block
lists what it mapped in document.json, and the critical tokens are the reference's. A digital
page's text layer is the document's own text and keeps every form it prints."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pagereader.config.options import Options
from pagereader.evaluate.metrics import critical_patterns, critical_tokens
from pagereader.evaluate.synth import write_legal_pdf
from pagereader.evaluate.synth_text import LegalPage
from pagereader.pipeline import parse
from pagereader.render.json import document_json
from pagereader.text.chars import normalize

from shared_data import shared

OTHER_FORMS = "条规爲内衆"


def _blocks(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [block for page in document["pages"] for block in page["blocks"]]


@pytest.mark.parametrize("stem", ["B0000001-scan-heavy", "N0030001-scan-light"])
def test_a_taiwan_scan_reads_in_taiwan_forms(stem: str) -> None:
    result = parse(shared("eval", "real_legal", f"{stem}.pdf"), Options())
    document = document_json(result)
    law = stem.split("-")[0]
    patterns = critical_patterns("zh-Hant")
    for page in result.pages:
        assert page.decision is not None and page.decision.script == "han"
        reference = shared("eval", "real_legal", f"{law}.p{page.index}.ref.txt").read_text("utf-8")
        text = "\n".join(b.text for b in page.blocks)
        assert not set(OTHER_FORMS) & set(text), text
        # not folded for the comparison: the forms themselves are the reference's
        assert critical_tokens(normalize(text, fold_variants=False), patterns) == critical_tokens(
            normalize(reference, fold_variants=False), patterns
        )
        lines = "".join(ln.text for b in page.blocks for ln in b.block.lines)
        assert not set(OTHER_FORMS) & set(lines), lines
    mapped: Counter[tuple[str, str]] = Counter()
    for block in _blocks(document):
        for pair in block["mapped_chars"]:
            mapped[pair["read"], pair["written"]] += pair["count"]
    assert mapped["内", "內"] >= 2, mapped
    assert mapped["规", "規"] == 1 if law == "B0000001" else mapped["衆", "眾"] == 1
    assert all(b["engine"] == "rapidocr" for b in _blocks(document) if b["mapped_chars"])


def test_a_digital_page_keeps_the_forms_it_prints(tmp_path: Path) -> None:
    printed = (
        "第一條　本規約為保障住戶權益而訂定，内部設施依第 3 条規定使用。",
        "第二條　衆人均得使用。",
    )
    pdf = tmp_path / "forms.pdf"
    write_legal_pdf(pdf, [LegalPage("zh-Hant", "翠湖社區　規約", "公共設施使用規約", printed)])
    result = parse(pdf, Options())
    (page,) = result.pages
    assert page.decision is not None and page.decision.page_class == "digital"
    assert page.decision.script == "han"
    text = "".join(b.text for b in page.blocks)
    for form in ("内", "条", "衆"):
        assert form in text
    assert all(b.engine == "textlayer" and b.mapped_chars == () for b in page.blocks if b.text)
