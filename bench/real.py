"""pagereader beside Tesseract, raw RapidOCR and OCRmyPDF on real pages, in one run.

Sets: ../shared/eval (relative to the repository root): real_legal (statutes, each digital,
light scan and heavy scan), docling_testdata, tesseract_test, cjk_extras, olmocr_bench_sample,
and real_slides (slide decks, PPTX and PDF, beside pdftotext: its own table, see slides.py).
Every engine reads each document in a fresh process (pagereader as `pagereader parse FILE
--pages ...`, the command a user runs), so "wall" is seconds a page with start-up included
(models loaded, pages rendered), "in-proc" is seconds a page once the engine is
loaded, and "CPU" is the user + system seconds of that whole process tree (start-up and every
thread and child process included: what a corpus costs when every core is busy), with its
ratio to Tesseract's on the same pages. Tesseract: OMP_THREAD_LIMIT=1, psm 3, the language
of the reference; RapidOCR: its default settings, lines in the order it returns them; both on
200-DPI rasters (images as they are). Per set, page type (digital / light / heavy, or scan for
the other sets) and engine it prints mean and worst character consistency, critical tokens
identical (% of pages; olmOCR rules passed for the rule-scored set) and seconds a page.

real_legal is scored as its README says: NFKC, whitespace removed, consistency 1 - Lev / max
length; critical tokens are its article numbers and modal words. The other sets use the
evaluation runner's scoring (src/pagereader/evaluate/run_cases.py).

    .venv/bin/python bench/real.py [--sets real_legal] [--limit N] [--engines pagereader,...]
                                   [--save DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

Row = tuple[float | None, bool, float | None, float, float]
"""One page's consistency, critical tokens identical, seconds in-process and wall, and CPU
seconds (the document's process tree's, shared evenly among its pages)."""

ROOT = Path(__file__).resolve().parents[1]
EVAL = Path(os.environ.get("PAGEREADER_SHARED") or ROOT.parent / "shared") / "eval"
SETS = (
    "real_legal",
    "docling_testdata",
    "tesseract_test",
    "cjk_extras",
    "olmocr_bench_sample",
    "real_slides",
)
ENGINES = ("pagereader", "tesseract", "rapidocr", "ocrmypdf")
TESSERACT_LANG = {"zh-Hant": "chi_tra", "ko": "kor", "en": "eng"}
DPI = 200
_HAN = "一二三四五六七八九十百千零〇兩"
LEGAL_CRITICAL = {
    "zh-Hant": (rf"第[{_HAN}0-9]+(?:-[0-9]+)?條(?:之[{_HAN}0-9]+)?", "不得|得|應|須"),
    "ko": (r"제[0-9]+조(?:의[0-9]+)?", "하여야|수있다|수없다"),
}


@dataclass(frozen=True)
class Page:
    """One scored page: where it is, what kind of page it is, and its reference."""

    dataset: str
    file: Path
    page: int
    kind: str
    lang: str
    case: object  # EvalCase for the shared readers; the reference text for real_legal


def legal_pages(root: Path) -> list[Page]:
    """real_legal: STEM.pdf, STEM-scan-light.pdf, STEM-scan-heavy.pdf, STEM.pN.ref.txt."""
    from pagereader.evalset_manifest import guess_lang

    pages = []
    for ref in sorted(root.glob("*.p*.ref.txt")):
        stem, number = re.fullmatch(r"(.+)\.p(\d+)\.ref\.txt", ref.name).groups()  # type: ignore[union-attr]
        text = ref.read_text(encoding="utf-8")
        lang = guess_lang(text)
        for suffix, kind in (("", "digital"), ("-scan-light", "light"), ("-scan-heavy", "heavy")):
            file = root / f"{stem}{suffix}.pdf"
            pages.append(Page("real_legal", file, int(number), kind, lang, text))
    return pages


def has_text_layer(file: Path, page: int) -> bool:
    if file.suffix.lower() != ".pdf":
        return False
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(file))
    try:
        chars: int = document[page - 1].get_textpage().count_chars()
        return chars >= 20
    finally:
        document.close()


def shared_pages(name: str) -> list[Page]:
    from pagereader.evaluate.cases import read_dataset

    cases = [c for c in read_dataset(EVAL / name) if c.file.suffix.lower() != ".pptx"]
    return [
        Page(
            name, c.file, c.page, "digital" if has_text_layer(c.file, c.page) else "scan", c.lang, c
        )
        for c in cases
    ]


def score(page: Page, text: str) -> tuple[float | None, bool]:
    """(consistency or None for rule-scored pages, critical identical or rules all passed)."""
    from pagereader.evaluate.metrics import char_consistency, critical_agreement, normalize
    from pagereader.evaluate.olmocr import check_rule
    from pagereader.evaluate.run_cases import score_text

    if page.dataset == "real_legal":
        hyp, ref = normalize(text, markdown=True), normalize(str(page.case))
        agreement = critical_agreement(hyp, ref, LEGAL_CRITICAL.get(page.lang, ()))
        return char_consistency(hyp, ref), agreement.ok
    case = page.case
    if case.kind == "rules":  # type: ignore[attr-defined]
        results = [check_rule(rule, text) for rule in case.rules]  # type: ignore[attr-defined]
        return None, all(r.passed for r in results)
    scores = score_text(case, text)  # type: ignore[arg-type]
    return float(scores["char_consistency"]), bool(scores["critical_ok"])  # type: ignore[arg-type]


# --- workers: one fresh process per engine and document --------------------------------


def _rasters(file: Path, pages: list[int]) -> list[Image.Image]:

    if file.suffix.lower() == ".pdf":
        import pypdfium2 as pdfium

        document = pdfium.PdfDocument(str(file))
        images = [document[p - 1].render(scale=DPI / 72).to_pil() for p in pages]
        document.close()
        return images
    out = []
    with Image.open(file) as image:
        for p in pages:
            image.seek(p - 1)
            out.append(image.convert("RGB"))
    return out


def worker(engine: str, file: Path, pages: list[int], lang: str) -> dict[str, object]:
    """Texts and in-process seconds of one engine on some pages of one document."""
    texts: dict[int, str] = {}
    seconds = 0.0
    if engine == "pagereader":
        raise ValueError("pagereader runs as its command does: see run_pagereader")
    elif engine == "rapidocr":
        import numpy as np
        from rapidocr import RapidOCR

        model = RapidOCR(params={"Global.log_level": "warning"})
        for number, image in zip(pages, _rasters(file, pages), strict=True):
            start = time.perf_counter()
            answer = model(np.asarray(image))
            seconds += time.perf_counter() - start
            texts[number] = "\n".join(getattr(answer, "txts", None) or ())
    elif engine == "tesseract":
        from pagereader.engines.tesseract import tesseract_text

        for number, image in zip(pages, _rasters(file, pages), strict=True):
            start = time.perf_counter()
            texts[number] = tesseract_text(image, TESSERACT_LANG.get(lang, "eng"), psm=3)
            seconds += time.perf_counter() - start
    return {"texts": {str(k): v for k, v in texts.items()}, "seconds": seconds}


def run_ocrmypdf(file: Path, pages: list[int], lang: str) -> dict[str, object]:
    import pypdfium2 as pdfium

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.pdf"
        subprocess.run(
            ["ocrmypdf", "--force-ocr", "-l", TESSERACT_LANG.get(lang, "eng"), str(file), out],
            check=True,
            capture_output=True,
            env={**os.environ, "OMP_THREAD_LIMIT": "1"},
        )
        document = pdfium.PdfDocument(str(out))
        texts = {str(p): document[p - 1].get_textpage().get_text_range() for p in pages}
        document.close()
    return {"texts": texts, "seconds": None}


def run_engine(
    engine: str, file: Path, pages: list[int], lang: str
) -> tuple[dict[str, Any], float, float]:
    """(worker answer, wall seconds, CPU seconds) with the engine started in a fresh process.
    CPU seconds are user + system of the whole process tree (the worker, its threads and the
    processes it waited for, Tesseract's included), start-up included: what a user pays."""
    start = time.perf_counter()
    before = _children_cpu()
    if engine == "ocrmypdf":
        answer = run_ocrmypdf(file, pages, lang)
    elif engine == "pagereader":
        answer = run_pagereader(file, pages)
    else:
        command = [sys.executable, __file__, "--worker", engine, str(file), lang]
        command += [str(p) for p in pages]
        env = {**os.environ, "OMP_THREAD_LIMIT": "1", "PYTHONPATH": str(ROOT / "src")}
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{engine} on {file.name}: {done.stderr.strip()[-400:]}")
        answer = json.loads(done.stdout.strip().splitlines()[-1])
    return answer, time.perf_counter() - start, _children_cpu() - before


def run_pagereader(file: Path, pages: list[int]) -> dict[str, Any]:
    """``pagereader parse FILE --pages ...`` as a user runs it (defaults, overlays included, a
    fresh output folder): the pages' Markdown from document.json; no in-process seconds (its
    pages overlap, so their totals do not add up to the document's time)."""
    with tempfile.TemporaryDirectory(prefix="bench-real-") as out:
        command = [sys.executable, "-m", "pagereader", "parse", str(file), "-o", out]
        command += ["--pages", ",".join(str(p) for p in pages)]
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        folder = Path(out) / file.stem
        if not (folder / "document.json").is_file():
            raise RuntimeError(f"pagereader on {file.name}: {done.stderr.strip()[-400:]}")
        document = json.loads((folder / "document.json").read_text(encoding="utf-8"))
    texts = {str(page["index"]): page["markdown"] for page in document["pages"]}
    return {"texts": texts, "seconds": None}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


# --- the table ----------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    parser.add_argument("--limit", type=int, default=0, help="documents per set (0: all)")
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--save", type=Path, help="write each engine's page texts here")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        engine, file, lang, *pages = args.worker
        print(json.dumps(worker(engine, Path(file), [int(p) for p in pages], lang)))
        return
    if not EVAL.is_dir():
        raise SystemExit(f"{EVAL} not found: the shared evaluation data sits beside the repo")
    sys.path.insert(0, str(ROOT / "src"))
    engines = [e for e in args.engines.split(",") if e]
    if "ocrmypdf" in engines and shutil.which("ocrmypdf") is None:
        print("OCRmyPDF is not installed: left out")
        engines.remove("ocrmypdf")
    rows: dict[tuple[str, str, str], list[Row]]
    rows = defaultdict(list)
    for name in args.sets:
        if name == "real_slides":
            from slides import SLIDE_ENGINES, run_slides

            default = args.engines == ",".join(ENGINES)
            chosen_engines = [e for e in engines if e in SLIDE_ENGINES]
            run_slides(EVAL / name, list(SLIDE_ENGINES) if default else chosen_engines, run_engine)
            continue
        pages = legal_pages(EVAL / name) if name == "real_legal" else shared_pages(name)
        documents: dict[Path, list[Page]] = defaultdict(list)
        for page in pages:
            documents[page.file].append(page)
        chosen = list(documents.items())[: args.limit or None]
        for file, doc_pages in chosen:
            numbers = sorted({p.page for p in doc_pages})
            for engine in engines:
                if engine == "ocrmypdf" and file.suffix.lower() != ".pdf":
                    continue
                try:
                    answer, wall, cpu = run_engine(engine, file, numbers, doc_pages[0].lang)
                except (RuntimeError, subprocess.CalledProcessError) as exc:
                    print(f"  {engine} failed on {file.name}: {exc}")
                    continue
                inproc = answer["seconds"]
                for page in doc_pages:
                    text = answer["texts"].get(str(page.page), "")
                    if args.save:
                        args.save.mkdir(parents=True, exist_ok=True)
                        name_out = f"{file.stem}.p{page.page}.{engine}.txt"
                        (args.save / name_out).write_text(text, encoding="utf-8")
                    consistency, critical = score(page, text)
                    per_in = None if inproc is None else inproc / len(numbers)
                    group = f"{name} {page.lang}" if name == "real_legal" else name
                    rows[(group, page.kind, engine)].append(
                        (consistency, critical, per_in, wall / len(numbers), cpu / len(numbers))
                    )
                    if name == "real_legal" and engine == "pagereader":
                        print(
                            f"  {file.name} p{page.page}: consistency {consistency:.4f}, "
                            f"critical {'ok' if critical else 'DIFFERENT'}"
                        )
    if rows:
        print_table(rows)


def print_table(rows: dict[tuple[str, str, str], list[Row]]) -> None:
    """Per set, page type and engine; ``CPU x tess`` is the engine's CPU seconds a page over
    Tesseract's on the same pages (pages per CPU-second: Tesseract's over the engine's)."""
    print(
        "\n| set | pages | engine | consistency mean | worst | critical identical "
        "| s/page in-proc | s/page wall | CPU s/page | CPU x tess |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for (name, kind, engine), found in sorted(rows.items()):
        scored = [r[0] for r in found if r[0] is not None]
        mean = f"{statistics.mean(scored):.3f}" if scored else "rules"
        worst = f"{min(scored):.3f}" if scored else ""
        critical = 100 * sum(r[1] for r in found) / len(found)
        inproc = [r[2] for r in found if r[2] is not None]
        inproc_text = f"{statistics.mean(inproc):.2f}" if inproc else "-"
        wall = statistics.mean(r[3] for r in found)
        cpu = statistics.mean(r[4] for r in found)
        tess = rows.get((name, kind, "tesseract"))
        ratio = f"{cpu / statistics.mean(r[4] for r in tess):.2f}x" if tess else "-"
        print(
            f"| {name} {kind} | {len(found)} | {engine} | {mean} | {worst} | {critical:.0f}% "
            f"| {inproc_text} | {wall:.2f} | {cpu:.2f} | {ratio} |"
        )


if __name__ == "__main__":
    main()
