"""``pagereader diff`` of a real statute's digital PDF against its heavy scan
(../shared/eval/real_legal): the same text, so every article pairs with its own number and
no article is added, deleted, renumbered or changed beyond its punctuation, and nothing
changes critically; what OCR does get wrong in the articles is a lone full stop the print set
on a line of its own, which the diff lists as punctuation only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pagereader.cli.main import app

from shared_data import shared

pytestmark = pytest.mark.slow  # three real scans read by OCR

STATUTES = ("N0030001", "B0000001", "constitution_1987")


@pytest.mark.parametrize("stem", STATUTES)
def test_a_statute_against_its_scan_has_no_real_change(tmp_path: Path, stem: str) -> None:
    digital = shared("eval", "real_legal", f"{stem}.pdf")
    scan = shared("eval", "real_legal", f"{stem}-scan-heavy.pdf")
    result = CliRunner().invoke(app, ["diff", str(digital), str(scan), "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "diff.json").read_text(encoding="utf-8"))
    assert data["mode"] == "articles"
    assert data["old"]["articles"] == data["new"]["articles"] > 0
    wrong = [c for c in data["changes"] if c["unit"] == "article" and not c["punctuation_only"]]
    assert wrong == [], json.dumps(wrong, ensure_ascii=False)[:2000]
    # outside the articles (a statute's name and date line) OCR may misread a glyph, never a
    # critical token here
    critical = [c for c in data["changes"] if c["critical"]]
    assert critical == [], json.dumps(critical, ensure_ascii=False)[:2000]
    articles = [c for c in data["changes"] if c["unit"] == "article"]
    assert data["summary"]["unchanged"] + len(articles) == data["old"]["articles"]
