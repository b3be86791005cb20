"""Dataset readers: every supported layout becomes a list of uniform ``EvalCase`` pages.

Formats, detected from the directory:

- ``manifest``: pagereader's own ``manifest.jsonl``, one page a line, paths relative to it;
- ``olmocr``: olmOCR-bench rule files (``*.jsonl`` of rules beside a ``pdfs/`` folder);
- ``docling``: docling's test data (``groundtruth/<name>.per_page.jsonl`` per document);
- ``textref``: a page image or PDF with its text beside it (``x.tif`` + ``x.txt``).
"""

from __future__ import annotations

import json
import logging
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from PIL import Image
from pydantic import BaseModel, ConfigDict

from pagereader.errors import InputError
from pagereader.evalset_manifest import MANIFEST_NAME, guess_lang
from pagereader.evalset_manifest import read_manifest as read_manifest_entries
from pagereader.evaluate.metrics import critical_patterns
from pagereader.evaluate.olmocr import OlmoRule, baseline_rules, load_rules
from pagereader.sources.formats import IMAGE_SUFFIXES
from pagereader.text.chars import strip_markdown

logger = logging.getLogger(__name__)

DatasetFormat = Literal["manifest", "olmocr", "docling", "textref"]
DOC_SUFFIXES = frozenset({".pdf"}) | IMAGE_SUFFIXES
"""What an evaluation set's documents may be: PDFs and images."""
_REFERENCE_SUFFIXES = (".txt", ".gold.txt", ".expected.txt", ".textlayer.txt")


class EvalCase(BaseModel):
    """One page to evaluate: the file, its 1-based page, and a reference text or rules."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dataset: str
    file: Path
    page: int
    lang: str = "en"
    reference: str | None = None
    reference_markdown: bool = False
    """The reference is an engine's Markdown, read the way its answers are."""
    rules: tuple[OlmoRule, ...] = ()
    critical: tuple[str, ...] = ()
    source: str = ""

    @property
    def kind(self) -> Literal["text", "rules"]:
        """``rules`` for olmOCR-bench pages, ``text`` for pages with a reference text."""
        return "rules" if self.rules else "text"


def detect_format(root: Path) -> DatasetFormat:
    """Which reader a directory needs; the error lists what each format looks like."""
    if (root / MANIFEST_NAME).is_file():
        return "manifest"
    if (root / "pdfs").is_dir() and any(root.glob("*.jsonl")):
        return "olmocr"
    if any(root.glob("*/groundtruth/*.per_page.jsonl")) or any(
        root.glob("groundtruth/*.per_page.jsonl")
    ):
        return "docling"
    if any(_reference_for(p) for p in root.rglob("*") if p.suffix.lower() in DOC_SUFFIXES):
        return "textref"
    raise InputError(
        "not a dataset pagereader can read",
        file=root,
        hint="expected manifest.jsonl, olmOCR-bench *.jsonl beside pdfs/, "
        "*/groundtruth/*.per_page.jsonl, or page files with a .txt beside them",
    )


def read_dataset(root: Path, *, name: str | None = None) -> list[EvalCase]:
    """All pages of a dataset directory, whatever its format."""
    root = Path(root)
    if not root.is_dir():
        raise InputError("dataset directory not found", file=root)
    label = name or root.name
    fmt = detect_format(root)
    logger.info("reading %s as %s", root, fmt)
    readers = {
        "manifest": read_manifest,
        "olmocr": read_olmocr,
        "docling": read_docling,
        "textref": read_textref,
    }
    return list(readers[fmt](root, label))


def read_manifest(root: Path, dataset: str) -> Iterator[EvalCase]:
    """``manifest.jsonl``: file, page, reference (a text file), lang, optional critical."""
    manifest = root / MANIFEST_NAME
    for number, entry in read_manifest_entries(manifest):
        try:
            reference = (root / entry.reference).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(
                f"manifest line {number}: reference {entry.reference} cannot be read: {exc}",
                file=manifest,
                hint="reference paths are relative to the manifest",
            ) from exc
        yield EvalCase(
            dataset=dataset,
            file=root / entry.file,
            page=entry.page,
            lang=entry.lang,
            reference=reference,
            critical=critical_patterns(entry.lang, entry.critical),
            source=str(manifest),
        )


def read_olmocr(root: Path, dataset: str) -> Iterator[EvalCase]:
    """olmOCR-bench rule files, grouped into one case per (pdf, page), with the benchmark's
    automatic baseline rule for page 1 of every PDF."""
    rules: list[OlmoRule] = []
    for path in sorted(root.glob("*.jsonl")):
        rules.extend(load_rules(path))
    rules.extend(baseline_rules(rules))
    pages: dict[tuple[str, int], list[OlmoRule]] = defaultdict(list)
    for rule in rules:
        pages[(rule.pdf, rule.page)].append(rule)
    for (pdf, page), page_rules in sorted(pages.items()):
        yield EvalCase(
            dataset=dataset,
            file=root / "pdfs" / pdf,
            page=page,
            lang="en",
            rules=tuple(page_rules),
            source=str(root),
        )


def _per_page(path: Path) -> list[dict[str, object]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _page_count(path: Path) -> int:
    if path.suffix.lower() == ".pdf":
        import pypdfium2

        document = pypdfium2.PdfDocument(path)
        try:
            return len(document)
        finally:
            document.close()
    with Image.open(path) as image:
        return int(getattr(image, "n_frames", 1))


def _docling_groundtruth(doc: Path) -> Path | None:
    folder = doc.parent / "groundtruth"
    for candidate in (
        folder / f"{doc.stem}.per_page.jsonl",
        folder / f"{doc.stem}.full_pdf.per_page.jsonl",
        folder / f"{doc.stem}.md",
    ):
        if candidate.is_file():
            return candidate
    return None


def read_docling(root: Path, dataset: str, *, furniture: bool = False) -> Iterator[EvalCase]:
    """docling's test data: body text per page from ``*.per_page.jsonl`` (headers and footers
    added with ``furniture``), or a whole ``.md`` for a one-page image. Only the pages the
    document has are used (a 2-frame TIFF takes pages 1-2 of a 9-page reference)."""
    docs = sorted(p for p in root.rglob("*") if p.suffix.lower() in DOC_SUFFIXES)
    for doc in docs:
        truth = _docling_groundtruth(doc)
        if truth is None:
            continue
        pages = _page_count(doc)
        if truth.suffix == ".md":
            text = strip_markdown(truth.read_text(encoding="utf-8"))
            entries: list[dict[str, object]] = [{"page": 1, "body_text": text}]
        else:
            entries = _per_page(truth)
        for entry in entries:
            page = int(str(entry.get("page", 1)))
            if page > pages:
                continue
            text = str(entry.get("body_text", ""))
            if furniture and entry.get("furniture_text"):
                text = f"{entry['furniture_text']}\n{text}"
            lang = guess_lang(text)
            yield EvalCase(
                dataset=dataset,
                file=doc,
                page=page,
                lang=lang,
                reference=text,
                critical=critical_patterns(lang),
                source=str(truth),
            )


def _reference_for(doc: Path) -> Path | None:
    stems = [doc.stem, re.sub(r"-rotated-\d+$", "", doc.stem)]
    for stem in dict.fromkeys(stems):
        for suffix in _REFERENCE_SUFFIXES:
            candidate = doc.with_name(stem + suffix)
            if candidate.is_file():
                return candidate
    return None


def read_textref(root: Path, dataset: str) -> Iterator[EvalCase]:
    """Page files with their human text beside them (``.txt``, ``.gold.txt``,
    ``.expected.txt``, ``.textlayer.txt``; a ``-rotated-N`` copy shares the original's text).
    The text is the reference of page 1."""
    for doc in sorted(p for p in root.rglob("*") if p.suffix.lower() in DOC_SUFFIXES):
        truth = _reference_for(doc)
        if truth is None:
            continue
        text = truth.read_text(encoding="utf-8", errors="replace")
        lang = guess_lang(text)
        yield EvalCase(
            dataset=dataset,
            file=doc,
            page=1,
            lang=lang,
            reference=text,
            critical=critical_patterns(lang),
            source=str(truth),
        )
