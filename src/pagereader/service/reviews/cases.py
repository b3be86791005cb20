"""Reviews become ground truth: every page a person has checked, written as a manifest.jsonl
case that ``pagereader eval`` reads (evaluate/cases.py, format ``manifest``).

A page counts as checked when at least one of its blocks was approved or corrected, every block
the verifier flagged on it was decided, and none was marked unreadable (its true text is then
unknown). The reference is the page's plain text with the corrections applied
(render.markdown.page_text), running headers and footers left out as document.md leaves them
out, since that Markdown is what the evaluator scores.
"""

from __future__ import annotations

import logging
import shutil
from dataclasses import dataclass
from pathlib import Path

from pagereader.config.options import Options
from pagereader.errors import InputError
from pagereader.evalset_manifest import ManifestEntry, guess_lang, write_manifest
from pagereader.render.markdown import page_text
from pagereader.service.jobs.store import FINISHED, JobStore
from pagereader.service.reviews.corrections import Review, ReviewStore, apply_reviews, load_original
from pagereader.types import PageResult

logger = logging.getLogger(__name__)

FURNITURE = frozenset({"header", "footer"})  # outside document.md, so outside the reference


@dataclass(frozen=True)
class ExportSummary:
    """What an export wrote."""

    cases: int
    jobs: int


def page_checked(page: PageResult, reviews: dict[tuple[int, int], Review]) -> bool:
    """Whether a person has vouched for every doubtful block of the page."""
    decided = {order: r for (index, order), r in reviews.items() if index == page.index}
    if not decided or any(r.action == "unreadable" for r in decided.values()):
        return False
    flagged = {b.block.order for b in page.blocks if b.verdict.outcome == "review"}
    return flagged <= decided.keys()


def export_data_dir(data_dir: Path, out: Path) -> ExportSummary:
    """The export of a service's data folder, read beside a running server (nothing requeued)."""
    if not (data_dir / "jobs.sqlite").is_file():
        raise InputError(
            "no jobs.sqlite here: not a service data folder",
            file=data_dir,
            hint="give the --data-dir that `pagereader serve` uses",
        )
    store = JobStore(data_dir / "jobs.sqlite")
    reviews = ReviewStore(data_dir / "reviews.sqlite")
    try:
        return export_evalset(store, reviews, data_dir / "uploads", out)
    finally:
        store.close()
        reviews.close()


def export_evalset(
    store: JobStore, reviews: ReviewStore, uploads: Path, out: Path
) -> ExportSummary:
    """Write ``out/manifest.jsonl`` with ``files/<job>/<name>`` and ``refs/<job>-p<N>.txt``
    for every checked page of every finished job."""
    entries: list[ManifestEntry] = []
    jobs = 0
    for job_id in sorted(reviews.job_ids()):
        job = store.get(job_id)
        decided = reviews.current(job_id)
        if job is None or job.status not in FINISHED or not decided:
            continue
        original = load_original(Path(job.output))
        upload = uploads / job.id / job.file_name
        if original is None or not upload.is_file():
            logger.warning("job %s: no outputs or upload; left out of the evalset", job.id)
            continue
        corrected = apply_reviews(original, decided, Options())  # its blocks, not its Markdown
        pages = [p for p in corrected.pages if page_checked(p, decided)]
        if not pages:
            continue
        jobs += 1
        target = out / "files" / job.id / job.file_name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(upload, target)
        for page in pages:
            text = page_text([b for b in page.blocks if b.block.kind not in FURNITURE])
            reference = out / "refs" / f"{job.id}-p{page.index}.txt"
            reference.parent.mkdir(parents=True, exist_ok=True)
            reference.write_text(text + "\n", encoding="utf-8")
            who = sorted({r.who for (i, _), r in decided.items() if i == page.index})
            entries.append(
                ManifestEntry(
                    file=target.relative_to(out).as_posix(),
                    page=page.index,
                    reference=reference.relative_to(out).as_posix(),
                    lang=guess_lang(text),
                    job=job.id,
                    reviewed_by=tuple(who),
                )
            )
    write_manifest(out, entries)
    return ExportSummary(cases=len(entries), jobs=jobs)
