"""Scanned pages: pagereader's seconds and accuracy beside Tesseract's on the same rasters.

Sets (from ../shared/eval): ``real_legal`` (statutes typeset, then scanned light and heavy; the
exact text of every page), and docling's scanned page at 0/90/180/270 degrees. For every page
pagereader runs in process (its stage timings; the models are loaded once, before timing) and
Tesseract reads the raster pagereader rendered (``OMP_THREAD_LIMIT=1``, ``--psm 3``, the
language of the reference). Printed per set, language and page type: pages, mean seconds of
each and their ratio, mean CPU seconds of each (every thread, and child processes:
pagereader's Korean strips and Tesseract itself) and their ratio (goal <= 1.0 on scans), mean
and worst character consistency of each, critical tokens identical (% of pages), pages
pagereader turned or flagged for review, the classify and layout stages, and the
orientation/script decision alone (timed again on the raster, given its line detection, which
layout reuses); then the scanned pages' CPU ratio per language and over all. Digital pages
are listed too (pagereader reads their text layer).

    .venv/bin/python bench/embedded.py [--sets real_legal docling_rotated] [--pages-detail]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pagereader.engines import registry
from pagereader.engines.rapidocr import detect
from pagereader.engines.tesseract import clean_text, tesseract_input
from pagereader.evalset_manifest import guess_lang
from pagereader.evaluate.cases import EvalCase
from pagereader.evaluate.metrics import critical_patterns
from pagereader.evaluate.run_cases import score_text
from pagereader.pipeline import make_context, parse_page
from pagereader.render.markdown import page_markdown
from pagereader.runtime import Runtime
from pagereader.sources import open_source
from pagereader.stages.script import orient

ROOT = Path(__file__).resolve().parents[1]
EVAL = Path(os.environ.get("PAGEREADER_SHARED") or ROOT.parent / "shared") / "eval"
TESS_LANG = {"zh-Hant": "chi_tra", "ko": "kor", "en": "eng"}
_REF = re.compile(r"^(?P<stem>.+)\.p(?P<page>\d+)\.ref\.txt$")


@dataclass(frozen=True)
class Case:
    """One page with its reference text, grouped by set and page type."""

    group: str
    kind: str
    file: Path
    page: int
    reference: str


def real_legal(folder: Path) -> Iterator[Case]:
    """Every page of every variant (digital, light and heavy scan) of each statute."""
    for ref in sorted(folder.glob("*.p*.ref.txt")):
        match = _REF.match(ref.name)
        if match is None:
            continue
        stem, page = match["stem"], int(match["page"])
        text = ref.read_text(encoding="utf-8")
        for kind, suffix in (("digital", ""), ("light", "-scan-light"), ("heavy", "-scan-heavy")):
            pdf = folder / f"{stem}{suffix}.pdf"
            if pdf.is_file():
                yield Case("real_legal", kind, pdf, page, text)


def docling_rotated(folder: Path) -> Iterator[Case]:
    """docling's one-sentence scanned page, upright and turned 90, 180 and 270 degrees."""
    truth = folder / "groundtruth" / "ocr_test.md"
    text = re.sub(r"<!--.*?-->", "", truth.read_text(encoding="utf-8"))
    for name in ("ocr_test", "ocr_test_rotated_90", "ocr_test_rotated_180", "ocr_test_rotated_270"):
        yield Case(
            "docling_rotated",
            name.removeprefix("ocr_test_") or "upright",
            folder / f"{name}.pdf",
            1,
            text,
        )


SETS = {
    "real_legal": lambda: real_legal(EVAL / "real_legal"),
    "docling_rotated": lambda: docling_rotated(EVAL / "docling_testdata" / "ocr"),
}


@dataclass(frozen=True)
class Row:
    """One page measured."""

    case: Case
    lang: str
    page_class: str
    turned: bool
    flagged: bool
    classify_s: float
    layout_s: float
    decide_s: float
    ours_s: float
    ours_cpu: float
    ours: dict[str, Any]
    tess_s: float
    tess_cpu: float
    tess: dict[str, Any]


async def measure(ctx: Runtime, case: Case) -> Row:
    """pagereader and Tesseract on one page."""
    lang = guess_lang(case.reference)
    scoring = EvalCase(
        dataset=case.group,
        file=case.file,
        page=case.page,
        lang=lang,
        reference=case.reference,
        critical=critical_patterns(lang),
    )
    source = open_source(
        case.file, password=None, max_image_pixels=ctx.options.render.max_image_pixels
    )
    try:
        before = _cpu()
        result, _ = await parse_page(ctx, source, case.page)
        ours_cpu = _cpu() - before
        raster = source.render(case.page, ctx.options.render.dpi)
    finally:
        source.close()
    start, before = time.perf_counter(), _cpu()
    tess_text = tesseract_program(raster.image, TESS_LANG.get(lang, "eng"))
    tess_s, tess_cpu = time.perf_counter() - start, _cpu() - before
    decide_s = 0.0
    if result.decision is not None and result.decision.page_class != "digital":
        detection = detect(raster.image)
        start = time.perf_counter()
        orient(raster, detection, registry)
        decide_s = time.perf_counter() - start
    decision = result.decision
    stages = result.timings.stages if result.timings else {}
    return Row(
        case=case,
        lang=lang,
        page_class=decision.page_class if decision else "failed",
        turned=bool(decision and "page turned" in decision.script_reason),
        flagged=any(block.verdict.outcome == "review" for block in result.blocks),
        classify_s=float(stages.get("classify", 0.0)),
        layout_s=float(stages.get("layout", 0.0)),
        decide_s=decide_s,
        ours_s=result.timings.total if result.timings else 0.0,
        ours_cpu=ours_cpu,
        ours=score_text(scoring, page_markdown(result.blocks, result.notes)),
        tess_s=tess_s,
        tess_cpu=tess_cpu,
        tess=score_text(scoring, tess_text),
    )


def tesseract_program(image: Any, lang: str) -> str:
    """The peer: the tesseract program as a user runs it on the page (``--psm 3``, one thread),
    its start-up included; pagereader itself may read Tesseract in process."""
    done = subprocess.run(
        ["tesseract", "stdin", "stdout", "-l", lang, "--psm", "3"],
        input=tesseract_input(image),
        capture_output=True,
        env={**os.environ, "OMP_THREAD_LIMIT": "1"},
        check=True,
    )
    return clean_text(done.stdout.decode("utf-8", errors="replace"))


def _cpu() -> float:
    """User + system seconds of this process (every thread) and of the processes it waited
    for (Tesseract's, pagereader's Korean strips included): pages are measured one at a time,
    so the difference around one is that page's."""
    mine, children = (
        resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


def _consistency(rows: list[Row], side: str) -> tuple[float, float]:
    values = [float(getattr(r, side)["char_consistency"]) for r in rows]
    return statistics.mean(values), min(values)


def table(rows: list[Row]) -> str:
    """Per set, language and page type: seconds, ratio, consistency, critical tokens, turned
    pages; then the scanned pages' CPU ratio per language and over all."""
    head = [
        "set",
        "lang",
        "type",
        "pages",
        "pagereader s",
        "tesseract s",
        "ratio",
        "pagereader CPU s",
        "tesseract CPU s",
        "CPU ratio",
        "classify s",
        "layout s",
        "orient+script s",
        "consistency (worst)",
        "tesseract (worst)",
        "critical ok",
        "tess critical ok",
        "turned",
        "flagged",
    ]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    groups = dict.fromkeys((r.case.group, r.lang, r.case.kind) for r in rows)
    for group, lang, kind in groups:
        mine = [r for r in rows if (r.case.group, r.lang, r.case.kind) == (group, lang, kind)]
        ours_s = statistics.mean(r.ours_s for r in mine)
        tess_s = statistics.mean(r.tess_s for r in mine)
        ours_cpu = statistics.mean(r.ours_cpu for r in mine)
        tess_cpu = statistics.mean(r.tess_cpu for r in mine)
        ours, ours_worst = _consistency(mine, "ours")
        tess, tess_worst = _consistency(mine, "tess")
        crit = 100 * sum(bool(r.ours["critical_ok"]) for r in mine) / len(mine)
        tess_crit = 100 * sum(bool(r.tess["critical_ok"]) for r in mine) / len(mine)
        cells = [
            group,
            lang,
            kind,
            str(len(mine)),
            f"{ours_s:.2f}",
            f"{tess_s:.2f}",
            f"{ours_s / tess_s:.2f}x",
            f"{ours_cpu:.2f}",
            f"{tess_cpu:.2f}",
            f"{ours_cpu / tess_cpu:.2f}x",
            f"{statistics.mean(r.classify_s for r in mine):.2f}",
            f"{statistics.mean(r.layout_s for r in mine):.2f}",
            f"{statistics.mean(r.decide_s for r in mine):.2f}",
            f"{ours:.3f} ({ours_worst:.3f})",
            f"{tess:.3f} ({tess_worst:.3f})",
            f"{crit:.0f}%",
            f"{tess_crit:.0f}%",
            str(sum(r.turned for r in mine)),
            str(sum(r.flagged for r in mine)),
        ]
        out.append("| " + " | ".join(cells) + " |")
    scans = [r for r in rows if r.page_class != "digital" and r.case.kind != "digital"]
    if scans:
        out.append("")
    for lang in dict.fromkeys(r.lang for r in scans):
        out.append(_scan_summary(f"{lang} scanned pages", [r for r in scans if r.lang == lang]))
    if scans:
        out.append(_scan_summary("all scanned pages", scans))
    return "\n".join(out)


def _scan_summary(name: str, scans: list[Row]) -> str:
    ours_s = statistics.mean(r.ours_s for r in scans)
    tess_s = statistics.mean(r.tess_s for r in scans)
    ours_cpu = statistics.mean(r.ours_cpu for r in scans)
    tess_cpu = statistics.mean(r.tess_cpu for r in scans)
    return (
        f"{name}: {len(scans)}, pagereader {ours_s:.2f} s, Tesseract {tess_s:.2f} s a page: "
        f"ratio {ours_s / tess_s:.2f}x; CPU {ours_cpu:.2f} s against {tess_cpu:.2f} s: "
        f"{ours_cpu / tess_cpu:.2f}x (pages per CPU-second: {tess_cpu / ours_cpu:.2f} of "
        "Tesseract's; goal <= 1.0x)"
    )


def detail(rows: list[Row]) -> str:
    """One line per page."""
    out = []
    for r in rows:
        out.append(
            f"{r.case.file.name} p{r.case.page} {r.page_class} turned={r.turned} "
            f"flagged={r.flagged} "
            f"ours {r.ours_s:.2f}s {float(r.ours['char_consistency']):.3f} "
            f"crit={r.ours['critical_ok']} {list(r.ours['critical_changes'])[:4]} | "
            f"tess {r.tess_s:.2f}s {float(r.tess['char_consistency']):.3f}"
        )
    return "\n".join(out)


def one_call(rows: list[Row]) -> str:
    """Start-up included, as a user pays it: per language, every scanned file of the rows read
    by one ``pagereader parse`` in a fresh process (CPU of the process and its children, over
    its pages), against Tesseract's CPU a page from the same rows (the program starts for each
    page, so its start-up is in its figure already)."""
    scans = [r for r in rows if r.page_class != "digital" and r.case.kind != "digital"]
    out = [
        "| lang | files | pages | pagereader CPU s a page (one call) | tesseract CPU s a page "
        "| CPU ratio |",
        "|---|---|---|---|---|---|",
    ]
    for lang in dict.fromkeys(r.lang for r in scans):
        mine = [r for r in scans if r.lang == lang]
        files = list(dict.fromkeys(r.case.file for r in mine))
        with tempfile.TemporaryDirectory() as folder:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(
                [sys.executable, "-m", "pagereader", "parse", *map(str, files), "-o", folder],
                capture_output=True,
                check=True,
            )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        ours, tess = cpu / len(mine), statistics.mean(r.tess_cpu for r in mine)
        out.append(
            f"| {lang} | {len(files)} | {len(mine)} | {ours:.2f} | {tess:.2f} "
            f"| {ours / tess:.2f}x |"
        )
    return "\n".join(out)


async def run(names: list[str], show_detail: bool) -> None:
    ctx = make_context()
    cases = [case for name in names for case in SETS[name]()]
    if not cases:
        raise SystemExit(f"no pages found under {EVAL}")
    await measure(ctx, cases[-1])  # load the models before anything is timed
    rows = [await measure(ctx, case) for case in cases]
    if show_detail:
        print(detail(rows))
    print(table(rows))
    print("\nStart-up included: one `pagereader parse` call a language (goal <= 1.0x)\n")
    print(one_call(rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="*", default=list(SETS), choices=list(SETS))
    parser.add_argument("--pages-detail", action="store_true")
    args = parser.parse_args()
    asyncio.run(run(args.sets, args.pages_detail))


if __name__ == "__main__":
    main()
