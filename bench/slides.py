"""Real slide decks (../shared/eval/real_slides): pagereader on the PPTX and on its PDF beside
pdftotext, raw RapidOCR and Tesseract, scored as the set's README says.

Each slide's reference is python-pptx's text of its shapes (no speaker notes, nothing inside
pictures). Both sides: NFKC, whitespace removed; pagereader's Markdown loses its markup first
(and its speaker notes, which the reference leaves out). Scores: character consistency
1 - Levenshtein / max length, and the character-multiset F1 (order-insensitive). "Added" is the
share of the output's characters the reference does not hold (multiset difference) over the
reference's length: text printed twice, a logo read on every slide, OCR noise.

    .venv/bin/python bench/real.py --sets real_slides [--engines pagereader,pdftotext,...]
"""

from __future__ import annotations

import html
import re
import statistics
import subprocess
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

SLIDE_ENGINES = ("pagereader", "pdftotext", "rapidocr", "tesseract")
_NOTES = re.compile(r"^> \*\*Notes\*\*$.*", re.M | re.S)

Runner = Callable[[str, Path, list[int], str], tuple[dict[str, Any], float, float]]
Scores = tuple[float, float, float]
"""(consistency, F1, added share) of one slide."""


def slide_references(root: Path) -> dict[str, dict[int, str]]:
    """NAME -> slide number -> reference text, for every deck with a PPTX and a PDF."""
    decks: dict[str, dict[int, str]] = defaultdict(dict)
    for ref in sorted(root.glob("*.p*.ref.txt")):
        found = re.fullmatch(r"(.+)\.p(\d+)\.ref\.txt", ref.name)
        if found and (root / f"{found[1]}.pptx").exists() and (root / f"{found[1]}.pdf").exists():
            decks[found[1]][int(found[2])] = ref.read_text(encoding="utf-8")
    return dict(decks)


def _normal(text: str, markdown: bool) -> str:
    from pagereader.text.chars import normalize, strip_markdown

    if markdown:
        text = html.unescape(strip_markdown(_NOTES.sub("", text)))
    return normalize(text, markdown=False, fold_variants=False)


def slide_scores(hypothesis: str, reference: str, markdown: bool) -> Scores:
    """(consistency, F1, added share) of one slide's text against its reference."""
    from pagereader.text.chars import char_consistency

    hyp, ref = _normal(hypothesis, markdown), _normal(reference, False)
    have, want = Counter(hyp), Counter(ref)
    common = sum((have & want).values())
    if not hyp and not ref:
        return 1.0, 1.0, 0.0
    f1 = 2 * common / (len(hyp) + len(ref)) if common else 0.0
    added = sum((have - want).values()) / max(1, len(ref))
    return char_consistency(hyp, ref), f1, added


def pdftotext_pages(pdf: Path, pages: list[int]) -> dict[str, str]:
    """pdftotext's text of each page (poppler's default reading mode)."""
    out = {}
    for page in pages:
        done = subprocess.run(
            ["pdftotext", "-f", str(page), "-l", str(page), "-enc", "UTF-8", str(pdf), "-"],
            capture_output=True,
            text=True,
            check=True,
        )
        out[str(page)] = done.stdout
    return out


def run_slides(root: Path, engines: list[str], run_engine: Runner) -> None:
    """Read every deck with every engine, then print the table and the worst slides."""
    rows: dict[tuple[str, str, str], list[Scores]] = defaultdict(list)
    worst: list[tuple[float, str, str, int, Scores]] = []
    for name, refs in slide_references(root).items():
        pages = sorted(refs)
        for engine in engines:
            for suffix in (".pptx", ".pdf"):
                if engine != "pagereader" and suffix == ".pptx":
                    continue  # the others read the PDF: LibreOffice's render of the deck
                file = root / f"{name}{suffix}"
                try:
                    if engine == "pdftotext":
                        texts = pdftotext_pages(file, pages)
                    else:
                        texts = run_engine(engine, file, pages, "en")[0]["texts"]
                except (RuntimeError, OSError, subprocess.CalledProcessError) as exc:
                    print(f"  {engine} failed on {file.name}: {exc}")
                    continue
                for page in pages:
                    scores = slide_scores(
                        texts.get(str(page), ""), refs[page], engine == "pagereader"
                    )
                    rows[(name, engine, suffix[1:])].append(scores)
                    if engine == "pagereader":
                        worst.append((scores[2], name, suffix[1:], page, scores))
    print_slides(rows, worst)


def _mean(found: list[Scores], i: int) -> str:
    return f"{statistics.mean(s[i] for s in found):.3f}" if found else "-"


def print_slides(
    rows: dict[tuple[str, str, str], list[Scores]],
    worst: list[tuple[float, str, str, int, Scores]],
) -> None:
    print("\n| deck | slides | engine | input | consistency | F1 | added (mean) | added (max) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for (name, engine, kind), found in sorted(rows.items()):
        top = max(s[2] for s in found)
        print(
            f"| {name} | {len(found)} | {engine} | {kind} | {_mean(found, 0)} | "
            f"{_mean(found, 1)} | {_mean(found, 2)} | {top:.2f} |"
        )
    for wanted in ("pptx", "pdf"):
        print(f"\nWorst five {wanted} slides for pagereader by added length / reference length:")
        print("| deck | input | slide | added | consistency | F1 |")
        print("| --- | --- | --- | --- | --- | --- |")
        mine = sorted((w for w in worst if w[2] == wanted), reverse=True)[:5]
        for added, name, kind, page, scores in mine:
            print(f"| {name} | {kind} | {page} | {added:.2f} | {scores[0]:.3f} | {scores[1]:.3f} |")
