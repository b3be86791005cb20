"""Golden outputs of the deterministic paths: a digital PDF, a PPTX deck (through LibreOffice)
and a scan (embedded OCR). Regenerate with PAGEREADER_REGEN_GOLDEN=1.

The models run on onnxruntime here: its f32 arithmetic gives the same boxes and scores on any
x86 CPU, while OpenVINO computes in bf16 only where the CPU has it (the default runtime's
quality is tested against ground truth in tests/integration instead)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from pagereader.options import Options, RapidOCREngineOptions
from pagereader.pipeline import parse
from pagereader.types import DocumentResult

HERE = Path(__file__).parent
EXAMPLES = HERE.parents[1] / "examples"
CASES = {
    "deck_pdf": EXAMPLES / "deck.pdf",
    "deck_pptx": EXAMPLES / "deck.pptx",
    "scan_png": EXAMPLES / "scan.png",
}


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
                        "verdict": b.verdict.action,
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
    assert view == json.loads((folder / "expected.json").read_text(encoding="utf-8"))
