"""Engine against engine: where no ground truth exists, one engine's reading of each page is
the reference the others are scored against.

The scores then measure agreement with that engine, not accuracy: a page both engines misread
the same way scores 1.0. The report names the reference engine so that no one reads it as
ground truth.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from pathlib import Path

from pagereader.config.options import Options
from pagereader.errors import InputError, PagereaderError
from pagereader.evalset_manifest import guess_lang
from pagereader.evaluate.cases import EvalCase, detect_format, read_dataset
from pagereader.evaluate.metrics import critical_patterns
from pagereader.evaluate.run_cases import Engine
from pagereader.sources import InflateLimits, open_source
from pagereader.sources.discover import walk_documents

logger = logging.getLogger(__name__)


def _page_count(path: Path, options: Options) -> int:
    """Pages of a document as the pipeline's readers open it; 0 when it cannot be opened."""
    try:
        source = open_source(
            path,
            password=options.pdf_password(),
            max_image_pixels=options.render.max_image_pixels,
            inflate_limits=InflateLimits.from_mb(
                options.limits.max_inflated_mb, options.limits.max_document_inflated_mb
            ),
        )
    except PagereaderError as exc:
        logger.warning("not evaluating %s: %s", path, exc)
        return 0
    try:
        return source.page_count
    finally:
        source.close()


def read_documents(root: Path, dataset: str, options: Options) -> Iterator[EvalCase]:
    """Every page of every supported file under ``root``, in path order, with no reference."""
    for path in walk_documents(root):
        for page in range(1, _page_count(path, options) + 1):
            yield EvalCase(dataset=dataset, file=path, page=page, source=str(path))


def read_pages(root: Path, options: Options, limit: int | None = None) -> list[EvalCase]:
    """The pages of a dataset folder, or of a plain folder of documents; at most ``limit``."""
    root = Path(root)
    if not root.is_dir():
        raise InputError("dataset directory not found", file=root)
    try:
        detect_format(root)
    except InputError:
        pages: list[EvalCase] = []
        for case in read_documents(root, root.name, options):
            if limit and len(pages) >= limit:
                break
            pages.append(case)
        return pages
    found = read_dataset(root)
    return found[:limit] if limit else found


async def with_reference(
    cases: Sequence[EvalCase], engine: Engine, name: str
) -> tuple[list[EvalCase], list[EvalCase]]:
    """The cases with ``engine``'s reading of each page as their reference (Markdown), the
    language guessed from it and that language's critical patterns; and the cases it could not
    read, which are left out rather than scored against an empty page."""
    read: list[EvalCase] = []
    failed: list[EvalCase] = []
    for case in cases:
        try:
            text = await engine(case.file, case.page)
        except Exception as exc:  # a page the reference cannot read has nothing to score against
            logger.warning("%s failed on %s page %d: %s", name, case.file, case.page, exc)
            failed.append(case)
            continue
        lang = guess_lang(text)
        read.append(
            case.model_copy(
                update={
                    "reference": text,
                    "reference_markdown": True,
                    "rules": (),
                    "lang": lang,
                    "critical": critical_patterns(lang),
                }
            )
        )
    return read, failed
