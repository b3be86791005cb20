"""Score olmOCR's own reference outputs with pagereader's olmOCR-bench scorer.

Prints the pass rate per test type (with the benchmark's automatic page-1 baseline rules)
and the overall score as the benchmark defines it (mean over tests of each JSONL file, then
mean over files). Usage:

    python bench/olmocr_reference_check.py [BENCH_DIR] [--candidate olmocr_pipeline] [-v]
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from pagereader.evaluate.olmocr import (
    RULE_TYPES,
    OlmoRule,
    baseline_rules,
    candidate_paths,
    check_rule,
    load_rules,
)

DEFAULT_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "eval" / "olmocr_bench_sample"


def main() -> None:
    """Score every rule against the candidate files and print a table per test type."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench_dir", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--candidate", default="olmocr_pipeline")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each failure")
    args = parser.parse_args()
    candidate_dir = args.bench_dir / "reference_outputs" / args.candidate

    files: dict[str, list[OlmoRule]] = {
        p.name: load_rules(p) for p in sorted(args.bench_dir.glob("*.jsonl"))
    }
    for extra in baseline_rules(r for rules in files.values() for r in rules):
        owner = next(
            name for name, rules in files.items() if any(r.pdf == extra.pdf for r in rules)
        )
        files[owner].append(extra)

    by_type: dict[str, list[float]] = defaultdict(list)
    file_scores: list[float] = []
    missing_pages: set[tuple[str, int]] = set()
    for rules in files.values():
        scores: list[float] = []
        for rule in rules:
            paths = candidate_paths(candidate_dir, rule.pdf, rule.page)
            if not paths:
                missing_pages.add((rule.pdf, rule.page))
            # upstream ships zero-byte outputs for pages the pipeline left empty
            texts = [p.read_text(encoding="utf-8") for p in paths] or [""]
            results = [check_rule(rule, t) for t in texts]
            score = sum(r.passed for r in results) / len(results)
            if args.verbose and score < 1.0:
                reason = results[0].reason
                print(f"FAIL {rule.type:8} {rule.id}: {reason}")
            scores.append(score)
            by_type[rule.type].append(score)
        if scores:
            file_scores.append(sum(scores) / len(scores))

    print(f"candidate: {candidate_dir}")
    print(f"{'type':10} {'tests':>6} {'passed':>7} {'rate':>7}")
    total = passed = 0.0
    for kind in RULE_TYPES:
        scores = by_type.get(kind, [])
        if not scores:
            continue
        total += len(scores)
        passed += sum(scores)
        print(f"{kind:10} {len(scores):6d} {sum(scores):7.1f} {sum(scores) / len(scores):7.1%}")
    print(f"{'all tests':10} {int(total):6d} {passed:7.1f} {passed / total:7.1%}")
    print(f"overall (mean of per-file means): {sum(file_scores) / len(file_scores):.1%}")
    if missing_pages:
        pages = ", ".join(f"{pdf} p{page}" for pdf, page in sorted(missing_pages))
        print(f"pages with no candidate file (scored as empty output): {pages}")


if __name__ == "__main__":
    main()
