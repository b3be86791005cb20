"""Reading order on docling's digital test documents, scored against their per-page text."""

from __future__ import annotations

import json
import statistics

from pagereader.evaluate.metrics import char_consistency, normalize
from pagereader.pipeline import parse
from pagereader.render.markdown import page_text

from shared_data import shared

# Single- and two-column prose (the Korean report has two columns and a table); docling's
# reference for the other files puts most of their text under pictures, which no reading
# order can match.
DOCUMENTS = ("multi_page", "normal_4pages", "picture_classification", "code_and_formula")


def test_body_text_in_docling_order() -> None:
    docling = shared("eval", "docling_testdata", "pdf")
    scores: dict[tuple[str, int], float] = {}
    for stem in DOCUMENTS:
        per_page = docling / "groundtruth" / f"{stem}.per_page.jsonl"
        reference = [json.loads(line) for line in per_page.read_text().splitlines() if line]
        result = parse(docling / f"{stem}.pdf")
        for row in reference:
            page = result.pages[row["page"] - 1]
            body = [b for b in page.blocks if b.block.kind not in ("header", "footer", "figure")]
            scores[(stem, row["page"])] = char_consistency(
                normalize(page_text(body)), normalize(row["body_text"])
            )
    assert len(scores) == 13
    assert statistics.mean(scores.values()) >= 0.95, scores
    assert min(scores.values()) >= 0.85, scores
