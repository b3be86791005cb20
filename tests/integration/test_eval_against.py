"""``pagereader eval --against``: engines scored against another engine's reading of a plain
folder of documents, with real engines on a real deck."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from pagereader.cli.main import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
runner = CliRunner()


def _eval(folder: Path, out: Path, engines: str, against: str) -> dict[str, Any]:
    args = ["eval", str(folder), "--engines", engines, "--against", against, "--limit", "2"]
    done = runner.invoke(app, [*args, "-o", str(out)])
    assert done.exit_code == 0, done.output
    report: dict[str, Any] = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return report


def test_eval_against_an_engine_on_a_plain_folder(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(EXAMPLES / "deck.pdf", folder / "deck.pdf")

    report = _eval(folder, tmp_path / "vs-embedded", "textlayer", "embedded")
    assert report["reference_engine"] == "embedded"
    assert "not ground truth" in str(report["reference"])
    rows = report["rows"]
    assert [(r["engine"], r["page"]) for r in rows] == [("textlayer", 1), ("textlayer", 2)]
    for row in rows:
        assert row["error"] == "", row
        consistency = row["char_consistency"]
        assert isinstance(consistency, float) and 0.9 <= consistency <= 1.0, row
        assert row["critical_ok"] is not None, row
    md = (tmp_path / "vs-embedded" / "report.md").read_text(encoding="utf-8")
    assert "Reference: engine embedded's reading of each page, not ground truth" in md

    same = _eval(folder, tmp_path / "vs-itself", "textlayer", "textlayer")
    assert same["reference_engine"] == "textlayer"
    consistencies = [r["char_consistency"] for r in same["rows"]]
    assert consistencies == [1.0, 1.0]
