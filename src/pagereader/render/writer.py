"""Writes a document's outputs: OUT/<name>/document.md, document.json, pages/NNN.png,
timings.json, review.md and (given a chunker) chunks.jsonl. Overlays are written as pages
finish, so a long document shows progress on disk.

Every file is written to a temporary name in its folder and renamed into place, so a full disk
or a killed process never leaves a truncated file. document.json is written last and says what
was not written: a page whose overlay failed is kept with that error, as is the document whose
Markdown, timings or review failed (``partial``), so the record on disk always agrees with what
the caller is told; when document.json itself cannot be written, none is left and the caller
gets one OutputError naming the folder.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from PIL import Image

from pagereader import atomic
from pagereader.atomic import TEMP_SUFFIX
from pagereader.errors import OutputError
from pagereader.render.json import document_json_text
from pagereader.render.overlay import draw_overlay
from pagereader.render.review import review_markdown
from pagereader.timing import timings_document
from pagereader.types import DocumentResult, ErrorItem, PageResult

logger = logging.getLogger(__name__)

_OVERLAY = re.compile(r"\d{3,}\.png")


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename; OutputError if the
    folder cannot take it (the temporary file is removed)."""
    try:
        atomic.write_atomic(path, data)
    except OSError as exc:
        raise OutputError(f"cannot write {path.name}: {_reason(exc)}", file=path.parent) from None


def probe_folder(folder: Path, hint: str | None = None) -> None:
    """Create ``folder`` and check that it takes a file: an OutputError before the work, not
    after it, when it cannot."""
    probe = folder / f".probe.{os.getpid()}{TEMP_SUFFIX}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe.touch()
        probe.unlink()
    except OSError as exc:
        message = f"cannot write the output folder: {_reason(exc)}"
        raise OutputError(message, file=folder, hint=hint) from None


def with_output_errors(
    result: DocumentResult, pages: Mapping[int, ErrorItem], errors: Sequence[ErrorItem] = ()
) -> DocumentResult:
    """``result`` with the outputs that could not be written: ``pages`` on their pages,
    ``errors`` on the document. What was read stays read: an ``ok`` document becomes
    ``partial``, never ``failed``."""
    if not pages and not errors:
        return result
    kept = tuple(
        page.model_copy(update={"errors": (*page.errors, pages[page.index])})
        if page.index in pages
        else page
        for page in result.pages
    )
    status = "failed" if result.status == "failed" else "partial"
    update = {"pages": kept, "errors": (*result.errors, *errors, *pages.values()), "status": status}
    return result.model_copy(update=update)


class DocumentWriter:
    """Output folder of one document.

    An overlay that cannot be written does not stop the parse: its page keeps the error, and
    :meth:`finish` returns the document with it (``partial``).
    """

    def __init__(
        self,
        folder: Path,
        overlays: bool = True,
        chunker: Callable[[DocumentResult], str] | None = None,
    ) -> None:
        """``chunker`` gives the text of chunks.jsonl for a document (the structure layer's,
        passed in since the writer sits below it); without one no chunks.jsonl is written."""
        self.folder = folder
        self.overlays = overlays
        self.chunker = chunker
        self.written: set[int] = set()
        self.unwritten: dict[int, str] = {}
        probe_folder(folder)

    def overlay_path(self, index: int) -> Path:
        return self.folder / "pages" / f"{index:03d}.png"

    def write_overlay(self, page: PageResult, image: Image.Image | None, scale: float) -> None:
        """Draw and save the page's overlay (``image`` is the page raster); a failure is kept
        for the page's record."""
        if not self.overlays or image is None:
            return
        buffer = io.BytesIO()
        draw_overlay(image, scale, page.blocks).save(
            buffer, format="PNG", optimize=False, compress_level=1
        )
        path = self.overlay_path(page.index)
        try:
            atomic.write_atomic(path, buffer.getvalue())
        except OSError as exc:
            self.unwritten[page.index] = f"cannot write the overlay {path}: {_reason(exc)}"
            return
        self.written.add(page.index)
        self.unwritten.pop(page.index, None)

    def _overlay_errors(self, result: DocumentResult) -> dict[int, ErrorItem]:
        hint = OutputError.default_hint
        return {
            page.index: ErrorItem(
                file=result.source, page=page.index, stage="write", message=message, hint=hint
            )
            for page in result.pages
            if (message := self.unwritten.get(page.index)) is not None
        }

    def finish(self, result: DocumentResult, budget_s: float, wall_s: float) -> DocumentResult:
        """Write the Markdown, the timings, the review and then the JSON; drop overlays of pages
        this run did not draw (left by a run over other pages). Returns the document as
        document.json records it, with what could not be written; raises OutputError (and
        leaves no document.json) when document.json itself cannot be written."""
        result = with_output_errors(result, self._overlay_errors(result))
        timings = json.dumps(timings_document(result.pages, budget_s, wall_s), indent=2)
        result = self._write_text(result, "document.md", result.markdown)
        result = self._write_text(result, "timings.json", timings)
        if self.chunker is not None:
            result = self._write_chunks(result, self.chunker)
        # the review after the others, so that it lists what of them failed
        result = self._write_text(result, "review.md", review_markdown(result, self.written))
        self._drop_stale(self.written if self.overlays else set())
        record = self.folder / "document.json"
        try:
            write_atomic(record, document_json_text(result).encode("utf-8"))
        except OutputError:
            with contextlib.suppress(OSError):
                record.unlink(missing_ok=True)  # an earlier run's record would disagree
            raise
        return result

    def _write_chunks(
        self, result: DocumentResult, chunker: Callable[[DocumentResult], str]
    ) -> DocumentResult:
        """chunks.jsonl; a chunker that fails leaves none (an older one is removed, it would
        disagree with this document.md) and the document says why."""
        try:
            text = chunker(result)
        except Exception as exc:
            logger.exception("%s: chunks.jsonl not made", result.source)
            with contextlib.suppress(OSError):
                (self.folder / "chunks.jsonl").unlink(missing_ok=True)
            item = ErrorItem(
                file=result.source,
                stage="chunks",
                message=f"cannot make chunks.jsonl: {type(exc).__name__}: {exc}",
                hint="rerun with --debug for the traceback and report it",
            )
            return with_output_errors(result, {}, [item])
        return self._write_text(result, "chunks.jsonl", text)

    def _write_text(self, result: DocumentResult, name: str, text: str) -> DocumentResult:
        """Write one of the document's text files; ``result`` with the error if it failed."""
        path = self.folder / name
        try:
            atomic.write_atomic(path, text.encode("utf-8"))
        except OSError as exc:
            message = f"cannot write {path}: {_reason(exc)}"
            hint = OutputError.default_hint
            item = ErrorItem(file=result.source, stage="write", message=message, hint=hint)
            return with_output_errors(result, {}, [item])
        return result

    def _drop_stale(self, keep: Iterable[int]) -> None:
        folder = self.folder / "pages"
        if not folder.is_dir():
            return
        wanted = {f"{index:03d}.png" for index in keep}
        for path in folder.iterdir():
            stale = _OVERLAY.fullmatch(path.name) and path.name not in wanted
            if stale or path.name.endswith(TEMP_SUFFIX):
                try:
                    path.unlink()
                except OSError as exc:
                    logger.warning("cannot remove the stale overlay %s: %s", path, exc)
