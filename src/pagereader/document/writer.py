"""Writes a document's output folder: every file of the registry (registry.py) from the one
finished document, and pages/NNN.png overlays as pages finish.

A document folder is complete or absent: the outputs are written into a hidden sibling
(``OUT/.<name>.tmp-XXXXXXXX``, see atomic.py), overlays as pages finish, and the folder is
renamed into place when document.json has been written, replacing the previous one whole. When
document.json or the folder cannot be written (a full disk, a read-only OUT) or the parse
stops, the sibling is removed, OUT/<name> stays as the last complete run left it (or absent)
and the caller gets one OutputError naming the folder. document.json says what else was not
written: a page whose overlay failed is kept with that error, as is the document whose
Markdown, timings, chunks or review failed (``partial``), so the record on disk always agrees
with what the caller is told. A reviewer's correction rewrites a finished folder through the
same writer (:meth:`DocumentWriter.keep_current`), so its files are those a parse of the
corrected document writes.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from PIL import Image

from pagereader import atomic
from pagereader.atomic import TEMP_SUFFIX, StagedFolder
from pagereader.config.options import Options
from pagereader.document.outputs import OUTPUTS, Finished, Output, Registry
from pagereader.errors import OutputError
from pagereader.render.files import OVERLAYS_DIR, TIMINGS_JSON, overlay_name
from pagereader.render.overlay import draw_overlay, overlay_png
from pagereader.types import DocumentResult, ErrorItem, PageResult

logger = logging.getLogger(__name__)


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


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
    """Output folder of one document, built aside and put in place by :meth:`finish`.

    An overlay that cannot be written does not stop the parse: its page keeps the error, and
    :meth:`finish` returns the document with it (``partial``). Used as a context manager, a
    writer whose :meth:`finish` did not run (the parse raised or was cancelled) leaves
    OUT/<name> as it was.
    """

    def __init__(self, folder: Path, options: Options, outputs: Registry = OUTPUTS) -> None:
        """Writes every output of ``outputs`` (overlays as ``options.output`` says). Raises
        OutputError before any work when ``folder``'s parent cannot be written."""
        self.final = folder
        self.options = options
        self.overlays = options.output.overlays
        self.outputs = outputs
        self.written: set[int] = set()
        self.unwritten: dict[int, str] = {}
        try:
            self.staged = StagedFolder(folder)
        except OSError as exc:
            raise OutputError(
                f"cannot write the output folder: {_reason(exc)}", file=folder
            ) from None
        self.folder = self.staged.path
        """Where the outputs are written until :meth:`finish` puts them at ``final``."""
        self.finishing = False

    def __enter__(self) -> DocumentWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self.finishing:  # finish cleans up after itself, also on a thread outliving
            self.staged.__exit__(*exc)  # a cancelled caller

    def discard(self) -> None:
        """Drop what was written; OUT/<name> stays as it was."""
        self.staged.discard()

    def keep_current(self) -> float | None:
        """Start from the folder in place (its overlays and any file the registry does not
        make), to write its outputs anew from a changed document; returns the run's seconds
        its timings.json recorded (None without one)."""
        self.staged.start_from_current()
        pages = self.folder / OVERLAYS_DIR
        if pages.is_dir():
            self.written.update(int(p.stem) for p in pages.glob("*.png") if p.stem.isdigit())
        try:
            summary = json.loads((self.folder / TIMINGS_JSON.name).read_bytes())["summary"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        wall = summary.get("wall_s")
        return float(wall) if isinstance(wall, int | float) else None

    def overlay_path(self, index: int) -> Path:
        return self.folder / overlay_name(index)

    def write_overlay(self, page: PageResult, image: Image.Image | None, scale: float) -> None:
        """Draw and save the page's overlay (``image`` is the page raster); a failure is kept
        for the page's record. A page with no overlay scale was not rendered (its raster is
        blank): blocks drawn on it would show nothing of the page."""
        if not self.overlays or image is None or page.overlay_scale is None:
            return
        data = overlay_png(draw_overlay(image, scale, page.blocks))
        path = self.overlay_path(page.index)
        try:
            atomic.write_atomic(path, data)
        except OSError as exc:
            shown = self.final / path.relative_to(self.folder)
            self.unwritten[page.index] = f"cannot write the overlay {shown}: {_reason(exc)}"
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

    def finish(
        self,
        result: DocumentResult,
        budget_s: float,
        wall_s: float | None,
        decisions: Mapping[tuple[int, int], Mapping[str, Any]] | None = None,
    ) -> DocumentResult:
        """Write every output of the registry, in its order, and put the folder in place.
        Returns the document as document.json records it, with what could not be written;
        raises OutputError, leaving OUT/<name> as it was, when document.json or the folder
        itself cannot be written. ``decisions``: as :class:`Finished` has them."""
        self.finishing = True
        with self.staged:
            result = with_output_errors(result, self._overlay_errors(result))
            finished = Finished(
                result, self.options, budget_s, wall_s, frozenset(self.written), decisions or {}
            )
            for output in (*self.outputs.views, self.outputs.report):
                finished = replace(finished, result=self._write(finished, output))
            record = self.outputs.record
            try:
                atomic.write_atomic(self.folder / record.name, record.view(finished).encode())
            except OSError as exc:
                raise self._unwritten(record.name, exc) from None
            try:
                self.staged.publish()
            except OSError as exc:
                raise self._unwritten("the folder", exc) from None
        return finished.result

    def _unwritten(self, what: str, exc: OSError) -> OutputError:
        """The one error of a folder not written, saying what is left at its place."""
        kept = "kept as the last complete run wrote it" if self.final.exists() else "not made"
        message = f"cannot write {what}: {_reason(exc)}; the folder is {kept}"
        return OutputError(message, file=self.final)

    def _write(self, finished: Finished, output: Output) -> DocumentResult:
        """Write one output; the document with the error if its view or the write failed (no
        file of that name is left: not one an earlier run wrote either)."""
        result, path = finished.result, self.folder / output.name
        try:
            text = output.view(finished)
        except Exception as exc:
            logger.exception("%s: %s not made", result.source, output.name)
            path.unlink(missing_ok=True)
            item = ErrorItem(
                file=result.source,
                stage=output.stage,
                message=f"cannot make {output.name}: {type(exc).__name__}: {exc}",
                hint="rerun with --debug for the traceback and report it",
            )
            return with_output_errors(result, {}, [item])
        try:
            atomic.write_atomic(path, text.encode("utf-8"))
        except OSError as exc:
            message = f"cannot write {self.final / output.name}: {_reason(exc)}"
            hint = OutputError.default_hint
            item = ErrorItem(file=result.source, stage="write", message=message, hint=hint)
            return with_output_errors(result, {}, [item])
        return result
