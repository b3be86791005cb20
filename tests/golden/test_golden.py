"""Golden outputs of the deterministic paths: a digital PDF, a PPTX deck (through LibreOffice)
and a scan (embedded OCR). Regenerate with PAGEREADER_REGEN_GOLDEN=1.

Text, Markdown, classes, kinds, engines, verdicts and the reading order must match exactly. A
block's box may move by up to BOX_TOLERANCE page units (points for PDFs and slides, pixels for
images) on each edge: LibreOffice lays a deck's text out with whatever fonts the machine has, and
another set of system fonts moved the slides' boxes by 1-5 pt with the same text and order.

The models run on onnxruntime here: its f32 arithmetic gives the same boxes and scores on any
x86 CPU, while OpenVINO computes in bf16 only where the CPU has it (the default runtime's
quality is tested against ground truth in tests/integration instead)."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest

from pagereader.config.options import Options, RapidOCREngineOptions
from pagereader.pipeline import parse
from pagereader.types import DocumentResult

HERE = Path(__file__).parent
EXAMPLES = HERE.parents[1] / "examples"
CASES = {
    "deck_pdf": EXAMPLES / "deck.pdf",
    "deck_pptx": EXAMPLES / "deck.pptx",
    "scan_png": EXAMPLES / "scan.png",
}
# how far each edge of a block's box may move from the golden one; a real layout change moves a
# block by a line height (12 pt and more) or changes its text or order, which stay exact
BOX_TOLERANCE = 6


def stable_view(result: DocumentResult) -> dict[str, Any]:
    """What must not change between runs: classes, reasons, blocks and their text."""
    return {
        "status": result.status,
        "pages": [
            {
                "index": page.index,
                "page_class": page.decision.page_class if page.decision else None,
                "script": page.decision.script if page.decision else None,
                "max_pixels": page.decision.max_pixels if page.decision else None,
                "blocks": [
                    {
                        "order": b.block.order,
                        "kind": b.block.kind,
                        "bbox": [round(v) for v in b.block.bbox],
                        "engine": b.engine,
                        "text": b.text,
                        "html": b.html,
                        "verdict": b.verdict.outcome,
                        "level": b.level,
                        "heading_path": list(b.heading_path),
                    }
                    for b in page.blocks
                    if b.block.kind != "figure"
                ],
            }
            for page in result.pages
        ],
    }


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden(case: str) -> None:
    result = parse(CASES[case], Options(ocr=RapidOCREngineOptions(backend="onnxruntime")))
    folder = HERE / case
    view = stable_view(result)
    markdown = "\n".join(
        line for line in result.markdown.splitlines() if not line.startswith("<!-- figure")
    )
    if os.environ.get("PAGEREADER_REGEN_GOLDEN") == "1":
        folder.mkdir(exist_ok=True)
        (folder / "expected.md").write_text(markdown, encoding="utf-8")
        (folder / "expected.json").write_text(
            json.dumps(view, ensure_ascii=False, indent=1), encoding="utf-8"
        )
    assert markdown == (folder / "expected.md").read_text(encoding="utf-8")
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    differences = golden_differences(expected, view)
    assert not differences, "\n".join(differences)


def golden_differences(
    expected: Any, actual: Any, where: str = "", box_tolerance: float = BOX_TOLERANCE
) -> list[str]:
    """Every place where ``actual`` differs from ``expected``: values must be equal, except a
    ``bbox``, whose edges may each differ by ``box_tolerance``."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        if expected.keys() != actual.keys():
            return [f"{where or '/'}: keys {sorted(actual)} != {sorted(expected)}"]
        found: list[str] = []
        for key, value in expected.items():
            path = f"{where}/{key}"
            if key == "bbox" and _is_box(value) and _is_box(actual[key]):
                moved = max(abs(a - e) for a, e in zip(actual[key], value, strict=True))
                if moved > box_tolerance:
                    found.append(
                        f"{path}: {actual[key]} != {value} (moved {moved:g} > {box_tolerance:g})"
                    )
            else:
                found += golden_differences(value, actual[key], path, box_tolerance)
        return found
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [f"{where}: {len(actual)} items != {len(expected)}"]
        return [
            difference
            for i, (e, a) in enumerate(zip(expected, actual, strict=True))
            for difference in golden_differences(e, a, f"{where}/{i}", box_tolerance)
        ]
    return [] if expected == actual else [f"{where}: {actual!r} != {expected!r}"]


def _is_box(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 4
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    )


def _deck_golden() -> dict[str, Any]:
    golden: dict[str, Any] = json.loads(
        (HERE / "deck_pptx" / "expected.json").read_text(encoding="utf-8")
    )
    return golden


def _block(view: dict[str, Any], page: int, order: int) -> dict[str, Any]:
    block: dict[str, Any] = view["pages"][page]["blocks"][order]
    return block


def test_a_box_moved_by_a_few_points_still_matches() -> None:
    golden = _deck_golden()
    moved = copy.deepcopy(golden)
    box = _block(moved, 1, 1)["bbox"]
    _block(moved, 1, 1)["bbox"] = [box[0] + 3, box[1] - 3, box[2] + 2, box[3] + 3]
    # the move another set of fonts made: every edge 2 pt away
    _block(moved, 2, 0)["bbox"] = [
        v + d for v, d in zip(_block(golden, 2, 0)["bbox"], (2, 2, -2, 2), strict=True)
    ]
    assert golden_differences(golden, moved) == []


def test_a_box_moved_by_more_than_the_tolerance_fails() -> None:
    golden = _deck_golden()
    moved = copy.deepcopy(golden)
    box = _block(moved, 1, 1)["bbox"]
    _block(moved, 1, 1)["bbox"] = [box[0], box[1] + 14, box[2], box[3] + 14]
    assert golden_differences(golden, moved) == [
        f"/pages/1/blocks/1/bbox: {_block(moved, 1, 1)['bbox']} != {box} (moved 14 > 6)"
    ]
    nudged = copy.deepcopy(golden)
    _block(nudged, 0, 0)["bbox"][2] += BOX_TOLERANCE + 1
    assert len(golden_differences(golden, nudged)) == 1


def test_changed_text_or_order_fails_however_close_the_boxes() -> None:
    golden = _deck_golden()
    changed = copy.deepcopy(golden)
    _block(changed, 0, 1)["text"] = _block(changed, 0, 1)["text"].replace("18%", "19%")
    first = "Document throughput rose {}% to 42,000 pages per day"
    [difference] = golden_differences(golden, changed)
    assert difference.startswith(f"/pages/0/blocks/1/text: '{first.format(19)}")
    assert f"!= '{first.format(18)}" in difference
    swapped = copy.deepcopy(golden)
    blocks = swapped["pages"][0]["blocks"]
    blocks[0]["text"], blocks[1]["text"] = blocks[1]["text"], blocks[0]["text"]
    assert len(golden_differences(golden, swapped)) == 2
    dropped = copy.deepcopy(golden)
    del dropped["pages"][0]["blocks"][-1]
    count = len(golden["pages"][0]["blocks"])
    assert golden_differences(golden, dropped) == [f"/pages/0/blocks: {count - 1} items != {count}"]
