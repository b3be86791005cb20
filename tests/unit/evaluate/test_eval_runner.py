"""The runner and report: scored rows, summaries with intervals, and the written files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pagereader.evaluate.cases import EvalCase, read_dataset
from pagereader.evaluate.eval_report import bootstrap_ci, write_report
from pagereader.evaluate.olmocr import OlmoRule
from pagereader.evaluate.run_cases import run_eval, short_diff

from shared_data import shared

REF_ZH = "第一條 人民不得違反本法。\n第二條 主管機關應公告之。"
REF_EN = "Article 1 The tenant shall pay 500 dollars."


def cases() -> list[EvalCase]:
    return [
        EvalCase(dataset="synth", file=Path("/d/zh.pdf"), page=1, lang="zh-Hant", reference=REF_ZH),
        EvalCase(dataset="synth", file=Path("/d/en.pdf"), page=1, lang="en", reference=REF_EN),
        EvalCase(
            dataset="bench",
            file=Path("/b/x.pdf"),
            page=1,
            rules=(
                OlmoRule(pdf="x.pdf", id="p", type="present", text="hello world"),
                OlmoRule(pdf="x.pdf", id="a", type="absent", text="Page 7"),
            ),
        ),
    ]


async def exact(file: Path, page: int) -> str:
    return {"zh.pdf": REF_ZH, "en.pdf": f"# {REF_EN}", "x.pdf": "hello world\n\nPage 7"}[file.name]


async def sloppy(file: Path, page: int) -> str:
    if file.name == "zh.pdf":
        return REF_ZH.replace("應", "得").replace("第二條", "")
    if file.name == "en.pdf":
        raise RuntimeError("engine down")
    return "hello wrld"


async def test_rows_and_summary_per_engine() -> None:
    report = await run_eval(cases(), {"exact": exact, "sloppy": sloppy}, n_boot=200)
    rows = {(r.engine, r.file): r for r in report.rows}
    assert rows[("exact", "zh.pdf")].char_consistency == pytest.approx(1.0)
    assert rows[("exact", "zh.pdf")].wer is None  # Chinese is not space-delimited
    assert rows[("exact", "en.pdf")].cer == pytest.approx(0.0)  # the heading mark is stripped
    assert rows[("exact", "en.pdf")].wer == pytest.approx(0.0)
    zh = rows[("sloppy", "zh.pdf")]
    # 24 reference characters without spaces; one substituted, three deleted
    assert zh.cer == pytest.approx(4 / 24)
    assert zh.char_consistency == pytest.approx(1 - 4 / 24)
    assert zh.critical_ok is False
    assert zh.critical_changes == ("-第二條", "應->得")
    failed = rows[("sloppy", "en.pdf")]
    assert failed.error == "RuntimeError: engine down" and failed.char_consistency == 0.0
    bench = rows[("exact", "x.pdf")]
    assert (bench.rules_passed, bench.rules_total, bench.char_consistency) == (1, 2, None)
    summary = {(s.engine, s.dataset, s.metric): s for s in report.summary}
    assert summary[("exact", "synth", "char_consistency")].mean == pytest.approx(1.0)
    assert summary[("sloppy", "synth", "critical_ok")].mean == pytest.approx(0.0)
    assert summary[("exact", "bench", "pass:present")].mean == 1.0
    assert summary[("exact", "bench", "pass:absent")].mean == 0.0
    assert summary[("sloppy", "bench", "pass:all")].mean == pytest.approx(0.5)
    assert report.worst[0].engine == "sloppy" and report.worst[0].file == "en.pdf"


async def test_report_files(tmp_path: Path) -> None:
    report = await run_eval(cases(), {"exact": exact, "sloppy": sloppy}, n_boot=200)
    paths = write_report(report, tmp_path)
    data = json.loads(paths["json"].read_text(encoding="utf-8"))
    first = data["rows"][0]
    assert {"engine", "dataset", "file", "page", "char_consistency", "cer", "critical_ok"} <= set(
        first
    )
    assert any(s["metric"] == "pass:all" for s in data["summary"])
    md = paths["md"].read_text(encoding="utf-8")
    assert "| synth | sloppy | 2 |" in md and "olmOCR-bench pass rate" in md
    assert "[-應-]{+得+}" in md
    page = paths["html"].read_text(encoding="utf-8")
    assert page.count("<svg") == 2 and "<table>" in page
    assert paths["accuracy"].read_bytes()[:4] == b"\x89PNG"


def test_bootstrap_interval_brackets_the_mean() -> None:
    mean, low, high = bootstrap_ci([0.0, 1.0] * 50, n_boot=500)
    assert mean == 0.5 and 0.38 < low < 0.5 < high < 0.62
    assert bootstrap_ci([0.7]) == (0.7, 0.7, 0.7)


def test_short_diff_marks_changes() -> None:
    assert short_diff("第一條應", "第一條得") == "…第一條[-應-]{+得+}…"
    assert short_diff("same", "same") == "(no differences)"


async def test_text_layer_engine_on_a_real_dataset() -> None:
    eval_dir = shared("eval")
    import pypdfium2

    async def textlayer(file: Path, page: int) -> str:
        document = pypdfium2.PdfDocument(file)
        try:
            return str(document[page - 1].get_textpage().get_text_bounded())
        finally:
            document.close()

    real = [
        c for c in read_dataset(eval_dir / "docling_testdata") if c.file.name == "normal_4pages.pdf"
    ]
    report = await run_eval(real, {"textlayer": textlayer}, n_boot=200)
    consistency = [r.char_consistency or 0.0 for r in report.rows]
    # page 1's text layer starts with the masthead that the reference puts elsewhere
    assert 0.4 < consistency[0] < 0.5
    assert all(c > 0.93 for c in consistency[1:])
    assert "(+" in report.worst[0].diff and report.worst[0].page == 1
