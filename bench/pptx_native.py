"""PPTX read natively (python-pptx, no LibreOffice) against docling's reviewed Markdown.

DIR is docling's test folder for slide decks (github.com/docling-project/docling, MIT:
tests/data/pptx, holding X.pptx and groundtruth/X.pptx.md; ../shared/eval/docling_testdata/pptx
here). Each deck is parsed by pagereader with its defaults and its whole Markdown scored as
bench/slides.py scores a slide (Markdown stripped from both sides, speaker notes from ours;
NFKC, whitespace removed): character consistency (1 - Levenshtein / max length, so order
counts), the character-multiset F1 (order-insensitive) and the share of characters the
reference does not hold. Beside them, how many lines each side writes as list items, so that a
box written wrongly as a list shows. docling's references also hold the decks' review comments
(``[author: ...]``), which pagereader does not write; the comment lines are left out of the
reference and counted apart.

    .venv/bin/python bench/pptx_native.py [DIR]
"""

from __future__ import annotations

import argparse
import html
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from slides import slide_scores

from pagereader.config.options import Options
from pagereader.pipeline import parse
from pagereader.text.chars import strip_markdown

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT.parent / "shared" / "eval" / "docling_testdata" / "pptx"
_COMMENT = re.compile(r"^\[author: [^\]]*\]: .*$", re.M)
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s", re.M)


def items(markdown: str) -> int:
    """Lines written as Markdown list items."""
    return len(_ITEM.findall(markdown))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, nargs="?", default=DEFAULT)
    args = parser.parse_args()
    cases = [
        (deck, args.folder / "groundtruth" / f"{deck.name}.md")
        for deck in sorted(args.folder.glob("*.pptx"))
    ]
    cases = [(deck, md) for deck, md in cases if md.is_file()]
    if not cases:
        raise SystemExit(f"no decks with references under {args.folder}")
    print(
        "| deck | consistency | F1 | added | list items (ours / reference) "
        "| comments left out | s |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    scores: list[tuple[float, float, float]] = []
    for deck, md in cases:
        reference = md.read_text(encoding="utf-8")
        comments = len(_COMMENT.findall(reference))
        reference = html.unescape(strip_markdown(_COMMENT.sub("", reference)))
        started = time.perf_counter()
        result = parse(deck, Options())
        seconds = time.perf_counter() - started
        got = slide_scores(result.markdown, reference, markdown=True)
        scores.append(got)
        listed = items(md.read_text(encoding="utf-8"))
        print(
            f"| {deck.name} | {got[0]:.3f} | {got[1]:.3f} | {got[2]:.3f} | "
            f"{items(result.markdown)} / {listed} | {comments} | {seconds:.2f} |"
        )
    means = [statistics.fmean(s[i] for s in scores) for i in range(3)]
    print(f"| mean of {len(scores)} | {means[0]:.3f} | {means[1]:.3f} | {means[2]:.3f} | | | |")


if __name__ == "__main__":
    main()
