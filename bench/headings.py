"""Headings found on docling's test PDFs (../shared/eval/docling_testdata/pdf), against the
section headers and titles of docling's reviewed groundtruth JSON (body layer only).

pagereader parses every PDF in one ``pagereader parse`` process; its headings are the blocks
of document.json with a ``level``. A found heading matches a reference heading when their
texts, NFKC-normalized with spaces collapsed and case folded, have a rapidfuzz ratio of at
least 90 with their words sorted (docling reads ``1 들어가며`` as ``들어가며 1``; each reference
heading matched once, best pairs first). Precision is matched / found,
recall matched / reference.

Levels: docling's PDF pipeline gives every section header level 1 (its groundtruth has no
nesting), so its ``level`` is no yardstick; the table says how many matched headings pagereader
puts at level 1 all the same. Level agreement is measured against the numbering the reference
headings print (``1``, ``1.1``, ``1.3.1``, ``2.1.6``, read here by a pattern of this script's
own): over every pair of matched numbered headings of a document, the pair agrees when
pagereader's levels order the two as their numbering depths do (deeper, shallower or equal).

    .venv/bin/python bench/headings.py [--keep OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from rapidfuzz import fuzz

from pagereader.text.chars import normalize
from pagereader.types import DocumentResult

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("PAGEREADER_SHARED") or ROOT.parent / "shared") / "eval"
PDFS = DATA / "docling_testdata" / "pdf"
MATCH = 90.0
_DEPTH = re.compile(r"^(\d{1,2}(?:\.\d{1,2})*)\s")


@dataclass(frozen=True)
class Heading:
    text: str
    level: int


def reference(stem: str) -> list[Heading]:
    """The body-layer titles and section headers of docling's groundtruth, in order."""
    doc = json.loads((PDFS / "groundtruth" / f"{stem}.json").read_text(encoding="utf-8"))
    return [
        Heading(item["text"], int(item.get("level", 1)))
        for item in doc["texts"]
        if item["label"] in ("title", "section_header")
        and item.get("content_layer", "body") == "body"
    ]


def found(result: DocumentResult) -> list[Heading]:
    return [
        Heading(b.text, b.level)
        for page in result.pages
        for b in sorted(page.blocks, key=lambda b: b.block.order)
        if b.level is not None
    ]


def _key(text: str) -> str:
    return normalize(text, fold_variants=False, keep_spaces=True).casefold()


def match(ours: list[Heading], refs: list[Heading]) -> list[tuple[Heading, Heading]]:
    """(ours, reference) pairs, best ratio first, each side used once."""
    scored = sorted(
        (
            (fuzz.token_sort_ratio(_key(a.text), _key(b.text)), i, j)
            for i, a in enumerate(ours)
            for j, b in enumerate(refs)
        ),
        reverse=True,
    )
    used_ours: set[int] = set()
    used_refs: set[int] = set()
    pairs = []
    for score, i, j in scored:
        if score < MATCH:
            break
        if i in used_ours or j in used_refs:
            continue
        used_ours.add(i)
        used_refs.add(j)
        pairs.append((i, j))
    return [(ours[i], refs[j]) for i, j in sorted(pairs)]


def depth(text: str) -> int | None:
    numbered = _DEPTH.match(" ".join(text.split()) + " ")
    return numbered.group(1).count(".") + 1 if numbered else None


def level_pairs(pairs: list[tuple[Heading, Heading]]) -> tuple[int, int]:
    """(agreeing, all) pairs of matched headings whose reference prints a number."""
    numbered = [(ours.level, d) for ours, ref in pairs if (d := depth(ref.text)) is not None]
    agree = total = 0
    for (la, da), (lb, db) in combinations(numbered, 2):
        total += 1
        agree += (la > lb) - (la < lb) == (da > db) - (da < db)
    return agree, total


def parse_all(out: Path) -> float:
    pdfs = sorted(PDFS.glob("*.pdf"))
    started = time.perf_counter()
    command = [sys.executable, "-m", "pagereader", "parse", *map(str, pdfs), "-o", str(out)]
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - started


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.2f}" if b else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="write pagereader's outputs here")
    args = parser.parse_args()
    if not PDFS.is_dir():
        raise SystemExit(f"{PDFS} not found: the shared evaluation data sits beside the repo")
    with tempfile.TemporaryDirectory() as temp:
        out = args.keep or Path(temp)
        seconds = parse_all(out)
        results = {
            Path(r.source).stem: r
            for r in (
                DocumentResult.model_validate_json(p.read_text(encoding="utf-8"))
                for p in out.glob("*/document.json")
            )
        }
    print(f"pagereader parse of {len(results)} PDFs: {seconds:.0f} s\n")
    print(
        "| document | found | reference | matched | precision | recall "
        "| at level 1 (docling's) | level pairs agreeing |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    totals = [0] * 6
    for stem in sorted(results):
        ours, refs = found(results[stem]), reference(stem)
        pairs = match(ours, refs)
        agree, pairs_total = level_pairs(pairs)
        flat = sum(o.level == r.level for o, r in pairs)
        row = (len(ours), len(refs), len(pairs), flat, agree, pairs_total)
        totals = [t + v for t, v in zip(totals, row, strict=True)]
        print(
            f"| {stem} | {row[0]} | {row[1]} | {row[2]} | {_ratio(row[2], row[0])} | "
            f"{_ratio(row[2], row[1])} | {flat}/{row[2]} | {agree}/{pairs_total} |"
        )
    n_ours, n_refs, n_match, flat, agree, pairs_total = totals
    print(
        f"| **all** | {n_ours} | {n_refs} | {n_match} | {_ratio(n_match, n_ours)} | "
        f"{_ratio(n_match, n_refs)} | {flat}/{n_match} | {agree}/{pairs_total} |"
    )


if __name__ == "__main__":
    main()
