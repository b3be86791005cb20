"""Scans as a corpus: CPU seconds a page when pagereader reads many documents in one call.

bench/real.py starts one process per 2-page document, so its CPU column carries pagereader's
start-up (imports, model loading: about 2.2-2.5 CPU s) on every two pages. A user with a corpus
runs one ``pagereader parse FOLDER``; this measures that: every scanned PDF of
../shared/eval/real_legal of a page type (light, heavy, or both) in one ``pagereader parse``
process, against Tesseract 5 on the same pages at the same 200 DPI (``--psm 3``,
``OMP_THREAD_LIMIT=1``, the statute's language), one process a page as Tesseract is run,
each page sent as pagereader sends Tesseract an image (grey pixels as PGM: an RGB page of a
grey scan costs Tesseract 0.3 s more, thresholding each channel). CPU
seconds are user + system of the process trees (RUSAGE_CHILDREN), start-up included on both
sides; the ratio is pagereader's over Tesseract's (goal <= 1.0).

    .venv/bin/python bench/corpus_cpu.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EVAL = Path(os.environ.get("PAGEREADER_SHARED") or ROOT.parent / "shared") / "eval"
DPI = 200
LANGS = {"constitution_1987": "kor"}
"""Tesseract's language by statute stem; the others are Traditional Chinese."""


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def pagereader_cpu(files: list[Path]) -> tuple[float, float, int]:
    """(wall s, CPU s, pages) of one ``pagereader parse`` over ``files``."""
    with tempfile.TemporaryDirectory(prefix="bench-corpus-") as out:
        command = [sys.executable, "-m", "pagereader", "parse", *map(str, files), "-o", out]
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        start, before = time.perf_counter(), _cpu()
        subprocess.run(command, capture_output=True, env=env, check=True)
        wall, cpu = time.perf_counter() - start, _cpu() - before
        pages = sum(1 for _ in Path(out).glob("*/pages/*.png"))
    return wall, cpu, pages


def tesseract_cpu(files: list[Path]) -> tuple[float, float, int]:
    """(wall s, CPU s, pages) of Tesseract reading every page of ``files``, one process a
    page, on the same 200-DPI rasters (rendering not counted)."""
    import pypdfium2 as pdfium

    from pagereader.engines.tesseract import tesseract_input

    wall = cpu = 0.0
    pages = 0
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    for file in files:
        lang = LANGS.get(file.name.split("-scan")[0], "chi_tra")
        document = pdfium.PdfDocument(str(file))
        for index in range(len(document)):
            image = document[index].render(scale=DPI / 72).to_pil()
            start, before = time.perf_counter(), _cpu()
            subprocess.run(
                ["tesseract", "stdin", "stdout", "-l", lang, "--psm", "3"],
                input=tesseract_input(image),
                capture_output=True,
                env=env,
                check=True,
            )
            wall, cpu = wall + time.perf_counter() - start, cpu + _cpu() - before
            pages += 1
        document.close()
    return wall, cpu, pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs of each side (medians)")
    args = parser.parse_args()
    folder = EVAL / "real_legal"
    if not folder.is_dir():
        raise SystemExit(f"{folder} not found: the shared evaluation data sits beside the repo")
    groups = {
        "light": sorted(folder.glob("*-scan-light.pdf")),
        "heavy": sorted(folder.glob("*-scan-heavy.pdf")),
    }
    groups["all scans"] = groups["light"] + groups["heavy"]
    print(
        "| scans | documents | pages | pagereader wall / CPU s a page "
        "| Tesseract wall / CPU s a page | CPU ratio |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for name, files in groups.items():
        ours = sorted((pagereader_cpu(files) for _ in range(args.repeat)), key=lambda r: r[1])
        theirs = sorted((tesseract_cpu(files) for _ in range(args.repeat)), key=lambda r: r[1])
        (ow, oc, op), (tw, tc, tp) = ours[len(ours) // 2], theirs[len(theirs) // 2]
        print(
            f"| {name} | {len(files)} | {op} | {ow / op:.2f} / {oc / op:.2f} "
            f"| {tw / tp:.2f} / {tc / tp:.2f} | {oc / op / (tc / tp):.2f}x |"
        )


if __name__ == "__main__":
    main()
