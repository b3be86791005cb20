"""DOCX read from its XML alone (no LibreOffice) against docling's reviewed Markdown, in one run.

DIR is docling's test folder for Word files (github.com/docling-project/docling, MIT:
tests/data/docx, holding sources/X.docx and groundtruth/X.docx.md). Each document is parsed
by pagereader with no renderer to be found (PAGEREADER_SOFFICE names a missing binary) and,
with --libreoffice, again through LibreOffice's render (the path taken when it is installed).
Both Markdown texts are scored as the evaluation runner scores pages (evaluate/run_cases.py):
NFKC, Markdown stripped, whitespace removed, character consistency 1 - Lev / max length. It
prints one row a document and the mean, and the seconds each path took.

    .venv/bin/python bench/docx_native.py DIR [--libreoffice]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from pagereader.config.options import Options
from pagereader.pipeline import parse
from pagereader.text.chars import char_consistency, normalize


def _score(path: Path, reference: str) -> tuple[float, float, str]:
    """Consistency with the reference, seconds, and the document's status."""
    started = time.perf_counter()
    result = parse(path, Options())
    seconds = time.perf_counter() - started
    hyp = normalize(result.markdown, markdown=True)
    return char_consistency(hyp, normalize(reference, markdown=True)), seconds, result.status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="docling's tests/data/docx")
    parser.add_argument("--libreoffice", action="store_true", help="also through LibreOffice")
    args = parser.parse_args()
    cases = sorted(
        (docx, args.folder / "groundtruth" / f"{docx.name}.md")
        for docx in (args.folder / "sources").glob("*.docx")
    )
    cases = [(docx, md) for docx, md in cases if md.is_file()]
    paths = {"native": True, "libreoffice": args.libreoffice}
    rows: dict[str, list[tuple[float, float, str]]] = {name: [] for name, on in paths.items() if on}
    missing = Path(tempfile.mkdtemp(prefix="no-soffice-")) / "soffice"
    before = os.environ.get("PAGEREADER_SOFFICE")
    header = f"{'document':44} " + " ".join(f"{name:>18}" for name in rows)
    print(header)
    for docx, md in cases:
        reference = md.read_text(encoding="utf-8")
        cells = []
        for name in rows:
            if name == "native":
                os.environ["PAGEREADER_SOFFICE"] = str(missing)
            elif before is None:
                os.environ.pop("PAGEREADER_SOFFICE", None)
            else:
                os.environ["PAGEREADER_SOFFICE"] = before
            scored = _score(docx, reference)
            rows[name].append(scored)
            cells.append(f"{scored[0]:6.3f} {scored[1]:5.2f}s {scored[2]:>4}")
        print(f"{docx.name[:44]:44} " + " ".join(f"{c:>18}" for c in cells))
    print(f"{'mean cc, total s (' + str(len(cases)) + ' documents)':44} ", end="")
    print(
        " ".join(
            f"{statistics.fmean(r[0] for r in got):6.3f} {sum(r[1] for r in got):6.1f}s     "
            for got in rows.values()
        )
    )


if __name__ == "__main__":
    main()
