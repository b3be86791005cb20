"""`pagereader make-evalset`: the synthetic documents written as a dataset in pagereader's
format (manifest.jsonl, one page a line), digital and scanned at three degradation levels."""

from __future__ import annotations

import logging
from pathlib import Path

from pagereader.evalset_manifest import ManifestEntry, write_manifest
from pagereader.evaluate import synth_text as corpus
from pagereader.evaluate.degrade import LEVELS, write_scans
from pagereader.evaluate.synth import write_deck_pdf, write_legal_pdf
from pagereader.evaluate.truth import DocTruth

logger = logging.getLogger(__name__)

CRITICAL: dict[str, tuple[str, ...]] = {
    "en": (r"(?:Article|Section) \d+(?:\.\d+)*", r"\b(?:shall not|shall|may|must)\b"),
    "zh-Hant": ("第[一二三四五六七八九十百]+條", "不得|得|應|須"),
    "ko": (r"제\d+조", r"하여야\s*한다|할\s*수\s*있다|아니\s*된다"),
}


def make_evalset(out_dir: Path) -> Path:
    """Write a synthetic dataset in pagereader's format and return its manifest.jsonl.

    Slides and legal pages in English, Traditional Chinese and Korean, each digital and as
    image-only scans at the light, medium and heavy levels; one manifest line per page.
    Legal pages name their critical patterns; slides use the evaluator's defaults per lang.
    References hold the body text: running headers and page numbers are furniture, which the
    Markdown leaves out (they stay in the JSON).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    short = {"en": "en", "zh-Hant": "zh", "ko": "ko"}
    docs: list[tuple[Path, DocTruth]] = []
    for lang in corpus.LANGS:
        slides = out_dir / f"slides-{short[lang]}.pdf"
        docs.append((slides, write_deck_pdf(slides, corpus.SLIDES[lang], table=None)))
        legal = out_dir / f"legal-{short[lang]}.pdf"
        docs.append((legal, write_legal_pdf(legal, corpus.LEGAL[lang])))
    entries: list[ManifestEntry] = []
    for pdf_path, truth in docs:
        truth.write(out_dir)
        variants = [pdf_path.name]
        for level in LEVELS:
            scan = out_dir / f"{pdf_path.stem}.scan-{level}.pdf"
            write_scans(pdf_path, scan, level)
            variants.append(scan.name)
        for page in truth.pages:
            body = out_dir / f"{pdf_path.stem}.p{page.page}.body.txt"
            body.write_text(page.body + "\n", encoding="utf-8")
        for name in variants:
            for page in truth.pages:
                is_legal = pdf_path.stem.startswith("legal")
                entries.append(
                    ManifestEntry(
                        file=name,
                        page=page.page,
                        reference=f"{pdf_path.stem}.p{page.page}.body.txt",
                        lang=page.lang,
                        critical=CRITICAL[page.lang] if is_legal else (),
                    )
                )
    manifest = write_manifest(out_dir, entries)
    logger.info("wrote %d pages to %s", len(entries), manifest)
    return manifest
