"""The documentation's deterministic figures are what the commands it names print now.

Every planner figure the docs pages quote (`pagereader plan`, `pagereader plan model`, and the
same time model for the options `plan` did not pick), the scorer's check on olmOCR's own outputs
(`bench/olmocr_reference_check.py`) and the embedded engine's scores on the olmOCR-bench sample
and the synthetic set (`pagereader eval`, slow) are computed here again and looked up in
README.md and docs/*.md, so a change to the planner, the catalog or the engines that moves a
figure fails until the page is updated with the command's new output. Timings (`pagereader
bench`, bench/*.py) depend on the machine: the pages name their command and machine, and no
test asserts them."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pagereader.cli.main import app
from pagereader.planner import PlanReport, get_gpu, get_model
from pagereader.planner.reporting import PathReport
from pagereader.planner.slide import Served, critical_path, engine_seconds

from shared_data import shared

REPO = Path(__file__).resolve().parents[1]
runner = CliRunner()


def pages() -> list[Path]:
    """The front page and every docs page (reference pages are made at build time)."""
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def docs_text() -> str:
    """Every page with every run of whitespace (line breaks included) as one space."""
    return " ".join(" ".join(p.read_text(encoding="utf-8").split()) for p in pages())


def page_with(line: str) -> list[str]:
    """The lines of the one page that has ``line`` as a line of its own."""
    found = [p for p in pages() if line in p.read_text(encoding="utf-8").splitlines()]
    assert len(found) == 1, f"{line!r} is on {len(found)} pages, not one"
    return found[0].read_text(encoding="utf-8").splitlines()


def docs_section(title: str) -> list[str]:
    """The lines of one section, from its heading to the next heading."""
    lines = page_with(title)
    start = lines.index(title) + 1
    end = next(
        (i for i in range(start, len(lines)) if lines[i].startswith("#")),
        len(lines),
    )
    return lines[start:end]


def cli(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def plan(*args: str) -> PlanReport:
    return PlanReport.model_validate_json(cli("plan", *args, "--format", "json"))


def model_facts(*args: str) -> dict[str, object]:
    facts: dict[str, object] = json.loads(cli("plan", "model", *args, "--format", "json"))
    return facts


def path_of(report: PlanReport) -> PathReport:
    path = report.layouts[0].critical_path
    assert path is not None
    return path


def served(report: PlanReport, model: str) -> tuple[int, int]:
    """A layout's model: the requests its KV cache holds, and its --max-num-seqs."""
    inst = next(i for i in report.layouts[0].instances if i.model == model)
    return inst.concurrency, inst.max_num_seqs


def assert_quoted(*phrases: str) -> None:
    text = docs_text()
    missing = [p for p in phrases if p not in text]
    assert not missing, "the docs do not say (update them from the command's output):\n" + (
        "\n".join(missing)
    )


def test_the_design_table_is_the_planners_markdown() -> None:
    printed = cli(
        "plan", "--gpus", "2xA100-40,4xA100-40,2xA100-80,4xA100-80", "--format", "markdown"
    ).splitlines()
    table = printed[: printed.index("")] if "" in printed else printed
    section = docs_section("## The design table, regenerated")
    quoted = [line for line in section if line.startswith("|")]
    assert len(table) == 9
    assert quoted == table


def test_the_five_second_derivation_is_the_planners_critical_path() -> None:
    path = path_of(plan("--gpus", "2xA100-40"))
    groups = {g.engine.split(" ")[0]: {t.name: t.seconds for t in g.terms} for g in path.groups}
    parser, general = groups["paddleocr-vl"], groups["qwen3-vl-8b"]
    rows = {
        line.split("|")[1].strip(): line.split("|")[2].strip()
        for line in docs_section("## Five seconds a slide on 2x A100 40, re-derived")
        if line.startswith("| ") and not line.startswith("| term")
    }
    expected = {
        "render + classify + layout": sum(t.seconds for t in path.cpu),
        "parser: overhead + preprocess": parser["overhead"] + parser["preprocess"],
        "parser: vision": parser["vision"],
        "parser: prefill": parser["prefill"],
        "parser: decode": parser["decode"],
        "8B: overhead + preprocess": general["overhead"] + general["preprocess"],
        "8B: vision": general["vision"],
        "8B: prefill": general["prefill"],
        "8B: decode": general["decode"],
        "critical path": path.seconds,
    }
    # the JSON keeps 3-4 decimals, so a term on a half (0.105) may be quoted either way
    assert sorted(rows) == sorted(expected)
    wrong = {t: (rows[t], s) for t, s in expected.items() if abs(float(rows[t]) - s) > 0.0051}
    assert not wrong, wrong
    assert_quoted(
        f"256 steps x {parser['decode'] / 256 * 1000:.2f} ms: 18 x 0.105 ms floor",
        f"256 steps x {general['decode'] / 256 * 1000:.1f} ms: 36 x 0.105 ms",
        f"0.42 + max({sum(parser.values()):.2f}, {sum(general.values()):.2f})",
    )


def test_the_planners_slide_estimates_in_the_prose() -> None:
    a100 = plan("--gpus", "2xA100-40")
    h100 = plan("--gpus", "1xH100-80")
    short = plan("--gpus", "2xA100-40", "--figure-tokens", "128")
    with_32b = plan("--gpus", "2xA100-80", "--models", "parser,qwen3-vl-8b,qwen3-vl-32b")
    slide, (room, seqs) = a100.layouts[0].slide_s, served(a100, "qwen3-vl-8b")
    pair = seqs / (2 * slide)  # a slide's requests held twice as long under load
    pairs = math.ceil(23 / pair)
    h100_slide, (h100_room, h100_seqs) = h100.layouts[0].slide_s, served(h100, "qwen3-vl-8b")
    card = h100_seqs / (2 * h100_slide)
    figure_32b = next(g.seconds for g in path_of(with_32b).groups if "32b" in g.engine)
    assert_quoted(
        f"`pagereader plan --gpus 2xA100-40` gives about {slide:.1f} s a slide",
        f"KV room for {room} concurrent 8B requests (`--max-num-seqs {seqs}`)",
        f"about {seqs} / (2 x {slide:.2f}) = {pair:.1f} pages/s, so 23 pages/s needs "
        f"{pairs} pairs ({2 * pairs} A100-40)",
        f"(`--gpus 1xH100-80`: about {h100_slide:.1f} s a slide, the 8B beside the parser on "
        f"one card with KV room for {h100_room} requests and `--max-num-seqs {h100_seqs}`) "
        f"{h100_seqs} / (2 x {h100_slide:.2f}) = {card:.1f} pages/s a card, so "
        f"{math.ceil(23 / card)} cards",
        f"Qwen3-VL-8B: the design table's layout. About {slide:.1f} s a slide",
        f"(`--figure-tokens 128`), {short.layouts[0].slide_s:.1f} s",
        f"its figure description about {figure_32b:.1f} s, {with_32b.layouts[0].slide_s:.1f} "
        "s a slide",
    )


def test_the_time_models_figures_for_options_plan_did_not_pick() -> None:
    """The 8B at INT4, the 32B at BF16 and the 27B at TP2: the same time model, one engine."""
    a100_40, a100_80 = get_gpu("a100-40"), get_gpu("a100-80")
    int4 = critical_path(
        [Served(get_model("parser"), "bf16", 1), Served(get_model("qwen3-vl-8b"), "int4", 1)],
        a100_40,
    )
    general = next(g for g in int4.groups if "8b" in g.label)
    step_ms = next(t.seconds for t in general.terms if t.name == "decode") / 256 * 1000
    bf16_32b = engine_seconds(get_model("qwen3-vl-32b"), "bf16", 1, a100_80)
    tp2_27b = engine_seconds(get_model("qwen3.5-27b"), "bf16", 2, a100_40)
    assert_quoted(
        f"(`awq_marlin`, {step_ms:.1f} ms a step) the estimate is {int4.seconds:.1f} s",
        f"TP2 at BF16 takes about {tp2_27b:.0f} s for a 256-token figure description",
        f"the 32B takes about {bf16_32b:.0f} s for a 256-token figure description on an A100",
    )


def test_the_memory_math_is_plan_models_output() -> None:
    page = ("--image", "1654x2339")
    bounded = (*page, "--max-pixels", "1003520")
    models = ("qwen2.5-vl-7b", "qwen3-vl-8b", "paddleocr-vl")
    default = [model_facts(m, *page)["visual_tokens"] for m in models]
    small = [model_facts(m, *bounded)["visual_tokens"] for m in models]
    square = model_facts("qwen2.5-vl-7b", "--image", "1024x1024")["visual_tokens"]
    kv_32b = model_facts("qwen3-vl-32b")["kv_bytes_per_token"]
    moe = model_facts("qwen3.5-35b-a3b")
    assert isinstance(kv_32b, dict) and isinstance(moe["kv_bytes_per_token"], dict)
    state = moe["linear_state_bytes_per_seq"]
    assert isinstance(state, int)
    side = math.isqrt(int(str(square)))
    assert_quoted(
        f"A 1654x2339 page: {default[0]} (Qwen2.5-VL), {default[1]} (Qwen3-VL), {default[2]} "
        f"(PaddleOCR-VL) at default bounds; {small[0]}, {small[1]}, {small[2]} with max_pixels "
        "1,003,520",
        f"1024x1024 at factor 28: {side} x {side} = {square}",
        f"2 x 64 x 8 x 128 x 2 = {kv_32b['bf16'] // 1024} KiB",
        f"2 x 10 x 2 x 256 x 2 = {moe['kv_bytes_per_token']['bf16'] // 1024} KiB",
        f"about {state / 1e6:.0f} MB of fp32 DeltaNet state a sequence",
    )


def test_the_olmocr_scorer_check_is_the_bench_scripts_output() -> None:
    """`bench/olmocr_reference_check.py` scores olmOCR's own outputs (no OCR: a few seconds)."""
    sample = shared("eval", "olmocr_bench_sample")
    script = REPO / "bench" / "olmocr_reference_check.py"
    done = subprocess.run(
        [sys.executable, str(script), str(sample)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rates: dict[str, tuple[int, float, str]] = {}
    for line in done.stdout.splitlines():
        found = re.fullmatch(r"(\w+(?: tests)?)\s+(\d+)\s+([\d.]+)\s+([\d.]+%)", line.strip())
        if found:
            rates[found[1]] = (int(found[2]), float(found[3]), found[4])
    overall = re.search(r"overall \(mean of per-file means\): ([\d.]+%)", done.stdout)
    assert overall is not None and "all tests" in rates
    tests, passed, rate = rates.pop("all tests")
    kinds = ", ".join(f"{kind} {r}" for kind, (_, _, r) in rates.items())
    assert_quoted(
        f"`bench/olmocr_reference_check.py`): {passed:.0f} of {tests} tests pass ({rate}; {kinds}),"
        f" {overall[1]} as the benchmark averages it"
    )


OLMOCR_COLUMNS = ("absent", "baseline", "math", "order", "present", "table", "all")


def docs_table(caption: str) -> dict[str, list[str]]:
    """The table after the paragraph that starts with ``caption``: first cell -> the others
    (bold marks dropped)."""
    found = [
        p
        for p in pages()
        if any(line.startswith(caption) for line in p.read_text(encoding="utf-8").splitlines())
    ]
    assert len(found) == 1, f"{caption!r} starts a paragraph on {len(found)} pages, not one"
    lines = found[0].read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(caption))
    first = next(i for i in range(start, len(lines)) if lines[i].startswith("|"))
    rows: dict[str, list[str]] = {}
    for line in lines[first + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip().replace("**", "") for c in line.strip("|").split("|")]
        rows[cells[0]] = cells[1:]
    return rows


def run_pagereader(*args: str) -> None:
    """One `pagereader` command in its own process, as a user runs it."""
    command = Path(sys.executable).with_name("pagereader")
    done = subprocess.run([str(command), *args], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.slow
@pytest.mark.tesseract
def test_the_olmocr_bench_table_is_evals_output(tmp_path: Path) -> None:
    """The embedded row of the docs' table: `pagereader eval
    ../shared/eval/olmocr_bench_sample --engines embedded` (1-2 minutes on 2 cores; an engine's
    scores and intervals do not depend on the other engines of the run). The tesseract row's
    engine takes twice as long and is left out to keep the suite's time down."""
    sample = shared("eval", "olmocr_bench_sample")
    run_pagereader("eval", str(sample), "--engines", "embedded", "-o", str(tmp_path))
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    scores = {s["metric"].removeprefix("pass:"): s for s in report["summary"]}
    quoted = docs_table("**olmOCR-bench sample**")
    assert sorted(quoted) == ["embedded", "tesseract"]
    expected = [f"{scores[c]['mean']:.1%}" for c in OLMOCR_COLUMNS[:-1]]
    overall = scores["all"]
    interval = f"[{overall['low'] * 100:.1f}, {overall['high'] * 100:.1f}]"
    assert quoted["embedded"] == [*expected, f"{overall['mean']:.1%} {interval}"]
    pages = len({(r["file"], r["page"]) for r in report["rows"]})
    assert_quoted(f"**olmOCR-bench sample** ({pages} pages, {overall['n']} rules;")


SYNTH_LEVELS = {"digital": "digital", "scan-light": "light scan", "scan-medium": "medium scan"}
SYNTH_LEVELS["scan-heavy"] = "heavy scan"


@pytest.mark.slow
@pytest.mark.tesseract
def test_the_synthetic_set_table_is_evals_output(tmp_path: Path) -> None:
    """The embedded rows of the docs' table: `pagereader make-evalset` then `pagereader eval
    SET --engines embedded` (2-3 minutes on 2 cores). The tesseract row is left out, as above."""
    run_pagereader("make-evalset", str(tmp_path / "set"))
    run_pagereader("eval", str(tmp_path / "set"), "--engines", "embedded", "-o", str(tmp_path))
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    quoted = docs_table("**Synthetic set**")
    assert quoted.pop("tesseract, all")[0] == "48"
    assert quoted == synthetic_rows(report)


def synthetic_rows(report: dict[str, Any]) -> dict[str, list[str]]:
    """The synthetic-set table on the Measured page as the eval report gives it: embedded per
    page type and language (the mean of its pages), then each engine over all pages."""
    scores = {(s["engine"], s["metric"]): s for s in report["summary"]}
    by_level: dict[tuple[str, str], list[float]] = {}
    for row in report["rows"]:
        if row["engine"] != "embedded":
            continue
        stem = Path(row["file"]).stem
        level = next((k for k in SYNTH_LEVELS if stem.endswith(k)), "digital")
        by_level.setdefault((level, row["lang"]), []).append(row["char_consistency"])
    expected: dict[str, list[str]] = {}
    for level, label in SYNTH_LEVELS.items():
        means = [by_level[level, lang] for lang in ("en", "zh-Hant", "ko")]
        pages = sum(len(m) for m in means)
        expected[f"embedded, {label}"] = [str(pages)] + [f"{sum(m) / len(m):.3f}" for m in means]
        expected[f"embedded, {label}"] += ["", ""]
    for engine in sorted({s["engine"] for s in report["summary"]}):
        cc, ok = scores[engine, "char_consistency"], scores[engine, "critical_ok"]
        overall = f"{cc['mean']:.3f} [{cc['low']:.3f}, {cc['high']:.3f}]"
        expected[f"{engine}, all"] = [str(cc["n"]), "", "", "", overall, f"{ok['mean']:.1%}"]
    return expected


def test_the_apple_and_tpu_figures_are_the_planners() -> None:
    """The Apple and TPU sections of plan.md quote what `plan` prints for those sets."""
    mac = plan("--gpus", "1xM1-Max-64")
    mac_8b = plan("--gpus", "1xM1-Max-64", "--models", "qwen3-vl-8b")
    lay = mac.layouts[0]
    path = path_of(mac)
    groups = {g.engine.split(" ")[0]: {t.name: t.seconds for t in g.terms} for g in path.groups}
    parser, general = groups["paddleocr-vl"], groups["qwen3-vl-8b"]
    bound = {i.model: i.decode_tokens_per_s_bound for i in lay.instances}
    room = {i.model: i.concurrency for i in lay.instances}
    v6e, v5e, v7x = (plan("--gpus", g).layouts[0] for g in ("8xTPU-v6e", "4xTPU-v5e", "1xTPU-v7x"))
    assert_quoted(
        f"the 8B's plan holds {room['qwen3-vl-8b']} typical requests' KV cache",
        f"at most 400 / 4.44 = {bound['qwen3-vl-8b']:.0f} tokens/s on an M1 Max",
        f"the parser's bound is {bound['paddleocr-vl']:,.0f} tokens/s",
        f"| parser: vision | {parser['vision']:.2f} |",
        f"| 8B: vision | {general['vision']:.2f} |",
        f"| 8B: prefill | {general['prefill']:.2f} |",
        f"| 8B: decode | {general['decode']:.2f} | "
        f"256 steps x {general['decode'] / 256 * 1e3:.1f} ms",
        f"| slide | {path.seconds:.1f} |",
        f"is {mac_8b.layouts[0].slide_s:.1f} s",
        f"(TP2, about {v5e.instances[0].concurrency} requests each)",
        f"(32 GB, about {v6e.instances[0].concurrency} requests each)",
        f"holds {v7x.instances[0].concurrency}",
        f"= {v6e.instances[0].decode_tokens_per_s_bound:.0f} tokens/s a sequence on v6e",
        f"and {v7x.instances[0].decode_tokens_per_s_bound:.0f} on v7x",
        f"are {v6e.slide_s:.1f} s on v6e (`8xTPU-v6e`), {v5e.slide_s:.1f} s on v5e",
        f"and {v7x.slide_s:.1f} s on one v7x chip",
    )
