"""What people decided about blocks: an append-only audit trail in SQLite, and the job's
outputs regenerated with those decisions applied.

Every decision is one row (who, when, the action, the new text and the text it replaced), never
updated nor deleted (not even with its job): the latest row of a block is its state, an admin's
``revert`` row undoes it. The
pipeline's own document.json is kept as ``document.original.json`` the first time a job is
corrected, and every output is always regenerated from it by the writer a parse writes with
(document/writer.py), so a re-run of the job (after a crash) gets the same corrections again
and an approval that changes nothing changes no byte. The job's folder is replaced whole each
time, never rewritten file by file.
"""

from __future__ import annotations

import json
import os
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from pagereader.config.options import Options
from pagereader.document.finish import with_changed_pages
from pagereader.document.outputs import OUTPUTS, Registry
from pagereader.document.writer import DocumentWriter
from pagereader.errors import OutputError
from pagereader.render import files
from pagereader.render.files import DOCUMENT_JSON
from pagereader.service.sqlite import open_store
from pagereader.text.unicode import CORRECTION_TEXT, clean_result
from pagereader.types import BlockResult, DocumentResult, PageResult, Verdict

ReviewAction = Literal["approve", "edit", "unreadable", "revert"]
REVIEW_ACTIONS: tuple[str, ...] = get_args(ReviewAction)
UNREADABLE_TEXT = "[unclear]"
ORIGINAL_JSON = files.ORIGINAL_JSON.name

SCHEMA_STEPS = (
    """
CREATE TABLE IF NOT EXISTS reviews (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id TEXT NOT NULL,
    page INTEGER NOT NULL,
    block INTEGER NOT NULL,
    action TEXT NOT NULL,
    text TEXT,
    original TEXT NOT NULL,
    who TEXT NOT NULL,
    role TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS reviews_job ON reviews (job_id, page, block, id);
""",
)
"""The schema, step by step (store.py): a new column or index is a new step at the end."""


class Review(BaseModel):
    """One row of the audit trail; as the API shows it, without its job (the URL names it)."""

    model_config = ConfigDict(frozen=True)

    id: int
    job_id: str = Field(exclude=True)
    page: int
    block: int
    action: ReviewAction
    text: str | None
    original: str
    who: str
    role: str
    at: str


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class ReviewStore:
    """The audit trail in one SQLite file; safe to call from any thread."""

    def __init__(self, path: Path) -> None:
        self._lock = threading.Lock()
        self._db = open_store(path, SCHEMA_STEPS)

    def add(
        self,
        job_id: str,
        page: int,
        block: int,
        action: ReviewAction,
        text: str | None,
        original: str,
        who: str,
        role: str,
    ) -> Review:
        """Append one decision."""
        with self._lock:
            row = self._db.execute(
                "INSERT INTO reviews (job_id, page, block, action, text, original, who, role, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (job_id, page, block, action, text, original, who, role, now()),
            ).fetchone()
        return Review(**dict(row))

    def trail(self, job_id: str | None = None) -> list[Review]:
        """Every decision, oldest first (of one job, or of all)."""
        with self._lock:
            if job_id is None:
                rows = self._db.execute("SELECT * FROM reviews ORDER BY id").fetchall()
            else:
                rows = self._db.execute(
                    "SELECT * FROM reviews WHERE job_id=? ORDER BY id", (job_id,)
                ).fetchall()
        return [Review(**dict(row)) for row in rows]

    def get(self, review_id: int) -> Review | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM reviews WHERE id=?", (review_id,)).fetchone()
        return Review(**dict(row)) if row else None

    def current(self, job_id: str) -> dict[tuple[int, int], Review]:
        """The state of each decided block: its latest row, reverted blocks left out."""
        latest: dict[tuple[int, int], Review] = {}
        for review in self.trail(job_id):
            latest[(review.page, review.block)] = review
        return {key: r for key, r in latest.items() if r.action != "revert"}

    def job_ids(self) -> list[str]:
        with self._lock:
            rows = self._db.execute("SELECT DISTINCT job_id FROM reviews").fetchall()
        return [row[0] for row in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def block_text(block: BlockResult) -> str:
    """The text a person sees and edits for a block (a table's HTML when it has no text)."""
    return block.text or block.html or ""


def load_original(folder: Path) -> DocumentResult | None:
    """The pipeline's result of a finished job (None when the job wrote none)."""
    for name in (ORIGINAL_JSON, DOCUMENT_JSON.name):
        path = folder / name
        if path.is_file():
            data = json.loads(path.read_text(encoding="utf-8"))
            return DocumentResult.model_validate(data)
    return None


def _decided(block: BlockResult, review: Review) -> BlockResult:
    """A block with a person's decision applied; its verdict no longer asks for review. An
    approval keeps what the verifier found (a block already accepted is left as it was); a
    person's text replaces what the findings were about."""
    if review.action == "approve":
        if block.verdict.outcome == "accept":
            return block
        return block.model_copy(
            update={"verdict": block.verdict.model_copy(update={"outcome": "accept"})}
        )
    update: dict[str, Any] = {"verdict": Verdict(outcome="accept")}
    if review.action == "edit":
        update.update(text=review.text or "", html=None)
    elif review.action == "unreadable":
        update.update(text=UNREADABLE_TEXT, html=None)
    return block.model_copy(update=update)


def apply_reviews(
    result: DocumentResult, reviews: dict[tuple[int, int], Review], options: Options
) -> DocumentResult:
    """The document with every decision applied, its text cleaned as every output's is
    (unicode.py; the trail keeps what was sent), and what is read from its blocks (headings,
    the structure tree, the Markdown, and so the chunks) computed again as for a parse."""
    pages: list[PageResult] = []
    for page in result.pages:
        blocks = tuple(
            _decided(b, reviews[(page.index, b.block.order)])
            if (page.index, b.block.order) in reviews
            else b
            for b in page.blocks
        )
        if blocks != page.blocks:
            # a person's text is cleaned as an engine's is before it reaches any output
            page, _ = clean_result(page.model_copy(update={"blocks": blocks}), CORRECTION_TEXT)
        pages.append(page)
    return with_changed_pages(result, pages, options)


def _provenance(review: Review) -> dict[str, Any]:
    return {
        "corrected_by": review.who,
        "corrected_at": review.at,
        "correction": review.action,
        "original": review.original,
    }


def decisions(
    original: DocumentResult, reviews: dict[tuple[int, int], Review]
) -> dict[tuple[int, int], dict[str, Any]]:
    """What document.json records beside each corrected block: the verifier's own verdict,
    who changed the text, and what it was before. An approval changes nothing in any output
    (the document is as it was read); the review trail keeps who approved what."""
    recorded: dict[tuple[int, int], dict[str, Any]] = {}
    for page in original.pages:
        for block in page.blocks:
            review = reviews.get((page.index, block.block.order))
            if review is not None and review.action != "approve":
                verdict = block.verdict.model_dump(mode="json")
                recorded[(page.index, block.block.order)] = {
                    "verdict": verdict,
                    **_provenance(review),
                }
    return recorded


def regenerate(
    folder: Path,
    reviews: dict[tuple[int, int], Review],
    options: Options,
    outputs: Registry = OUTPUTS,
) -> DocumentResult | None:
    """Write every output of a finished job anew (document/writer.py, as a parse writes them)
    from its original result and the decisions; returns the corrected result (None without
    outputs). Its overlays are kept, as is the run's wall time in timings.json. The folder is
    replaced whole: a failure leaves the previous outputs, all of them, and raises
    OutputError."""
    if not (folder / DOCUMENT_JSON.name).is_file():
        return None
    original = load_original(folder)
    assert original is not None
    corrected = apply_reviews(original, reviews, options)
    with DocumentWriter(folder, options, outputs) as writer:
        try:
            wall_s = writer.keep_current()
            if not (folder / ORIGINAL_JSON).is_file():
                os.replace(writer.folder / DOCUMENT_JSON.name, writer.folder / ORIGINAL_JSON)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise OutputError(
                f"cannot write the corrected outputs: {reason}; the folder is kept as it was",
                file=folder,
            ) from None
        budget_s = options.budget.target_page_s
        return writer.finish(corrected, budget_s, wall_s, decisions(original, reviews))
