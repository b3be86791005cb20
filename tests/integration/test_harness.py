"""The timing harness and the eval command, end to end on real pages."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pagereader.cli.main import app

from fixtures import Fixtures

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
runner = CliRunner()


def test_bench_writes_timings_whose_stages_add_up(tmp_path: Path) -> None:
    done = runner.invoke(
        app, ["bench", str(EXAMPLES / "deck.pdf"), "--per-type", "3", "-o", str(tmp_path)]
    )
    assert done.exit_code == 0, done.output
    timings = json.loads((tmp_path / "timings.json").read_text())
    assert set(timings) == {"pages", "summary"}
    assert [row["page"] for row in timings["pages"]] == [1, 2, 3]
    for row in timings["pages"]:
        assert row["page_class"] == "digital"
        assert set(row["stages"]) >= {"render", "classify", "layout", "recognize", "assemble"}
        assert abs(sum(row["stages"].values()) - row["total"]) <= 0.05 * row["total"] + 1e-6
    summary = timings["summary"]
    assert summary["budget_s"] == 5.0 and summary["pages"] == 3
    assert summary["by_class"]["digital"]["pages"] == 3
    assert summary["dominant_stage"] in summary["stage_seconds"]
    budget = (tmp_path / "budget.md").read_text()
    assert "| digital | 3 |" in budget and "Dominant stage" in budget
    assert (tmp_path / "stages.png").stat().st_size > 1000


def test_parse_writes_timings_per_page(fixtures: Fixtures, tmp_path: Path) -> None:
    done = runner.invoke(
        app, ["parse", str(fixtures.legal_pdf), "-o", str(tmp_path), "--no-resume"]
    )
    assert done.exit_code == 0, done.output
    timings = json.loads((tmp_path / "legal" / "timings.json").read_text())
    assert [p["page"] for p in timings["pages"]] == [1, 2, 3]
    assert all(
        p["engine_calls"]
        == {"textlayer": len(p["engine_calls"]) and p["engine_calls"]["textlayer"]}
        for p in timings["pages"]
    )


def test_eval_scores_a_manifest(fixtures: Fixtures, tmp_path: Path) -> None:
    data = tmp_path / "set"
    data.mkdir()
    truth = fixtures.pages(fixtures.legal_pdf)
    lines = []
    for page in truth:
        # each page of this fixture is another statute with its own header line: no other page
        # repeats it, so it is body text (document/running.py); its page number is not
        header = page.furniture[0]
        (data / f"ref{page.page}.txt").write_text(f"{header}\n{page.body}", encoding="utf-8")
        lines.append(
            json.dumps(
                {
                    "file": str(fixtures.legal_pdf),
                    "page": page.page,
                    "reference": f"ref{page.page}.txt",
                    "lang": page.lang,
                }
            )
        )
    (data / "manifest.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = runner.invoke(
        app, ["eval", str(data), "--engines", "embedded,textlayer", "-o", str(tmp_path / "report")]
    )
    assert done.exit_code == 0, done.output
    report = json.loads((tmp_path / "report" / "report.json").read_text())
    rows = report["rows"]
    assert {r["engine"] for r in rows} == {"embedded", "textlayer"}
    assert len(rows) == 6
    for row in rows:
        assert row["char_consistency"] >= 0.97, row
        assert row["critical_ok"], row
    assert (tmp_path / "report" / "report.html").exists()
    assert "embedded" in (tmp_path / "report" / "report.md").read_text()
