"""Writes a document's outputs: OUT/<name>/document.md, document.json, pages/NNN.png,
timings.json and review.md. Overlays are written as pages finish, so a long document shows
progress on disk.

Every file is written to a temporary name in its folder and renamed into place, so a full disk
or a killed process never leaves a truncated file; a write that fails becomes one OutputError
naming the folder and what to do.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import re
from collections.abc import Iterable
from pathlib import Path

from PIL import Image

from pagereader.errors import OutputError
from pagereader.render.json import document_json_text
from pagereader.render.overlay import draw_overlay
from pagereader.render.review import review_markdown
from pagereader.timing import timings_document
from pagereader.types import DocumentResult, PageResult

logger = logging.getLogger(__name__)

_OVERLAY = re.compile(r"\d{3,}\.png")
_TEMP = ".part"


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename; OutputError if the
    folder cannot take it (the temporary file is removed)."""
    temp = path.with_name(f".{path.name}.{os.getpid()}{_TEMP}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with temp.open("wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temp.unlink(missing_ok=True)
        reason = exc.strerror or str(exc)
        raise OutputError(f"cannot write {path.name}: {reason}", file=path.parent) from None


class DocumentWriter:
    """Output folder of one document.

    An overlay that cannot be written does not stop the parse: the first failure is kept and
    raised by :meth:`finish`, after the other outputs have been tried.
    """

    def __init__(self, folder: Path, overlays: bool = True) -> None:
        self.folder = folder
        self.overlays = overlays
        self.written: set[int] = set()
        self.failure: OutputError | None = None
        probe = folder / f".probe.{os.getpid()}{_TEMP}"
        try:  # fail before the parse, not after it, when the folder cannot take files
            self.folder.mkdir(parents=True, exist_ok=True)
            probe.touch()
            probe.unlink()
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise OutputError(f"cannot write the output folder: {reason}", file=folder) from None

    def overlay_path(self, index: int) -> Path:
        return self.folder / "pages" / f"{index:03d}.png"

    def write_overlay(self, page: PageResult, image: Image.Image | None, scale: float) -> None:
        """Draw and save the page's overlay (``image`` is the page raster)."""
        if not self.overlays or image is None or self.failure is not None:
            return
        buffer = io.BytesIO()
        draw_overlay(image, scale, page.blocks).save(
            buffer, format="PNG", optimize=False, compress_level=1
        )
        try:
            write_atomic(self.overlay_path(page.index), buffer.getvalue())
        except OutputError as exc:
            self.failure = exc
            return
        self.written.add(page.index)

    def finish(self, result: DocumentResult, budget_s: float, wall_s: float) -> None:
        """Write the Markdown, the JSON, the timings and the review; drop overlays of pages
        this run did not draw (left by a run over other pages). Raises the first OutputError."""
        timings = timings_document(result.pages, budget_s, wall_s)
        outputs = (
            ("document.md", result.markdown),
            ("document.json", document_json_text(result)),
            ("timings.json", json.dumps(timings, indent=2)),
            ("review.md", review_markdown(result)),
        )
        for name, text in outputs:
            try:
                write_atomic(self.folder / name, text.encode("utf-8"))
            except OutputError as exc:
                self.failure = self.failure or exc
        self._drop_stale(self.written if self.overlays else set())
        if self.failure is not None:
            raise self.failure

    def _drop_stale(self, keep: Iterable[int]) -> None:
        folder = self.folder / "pages"
        if not folder.is_dir():
            return
        wanted = {f"{index:03d}.png" for index in keep}
        for path in folder.iterdir():
            stale = _OVERLAY.fullmatch(path.name) and path.name not in wanted
            if stale or path.name.endswith(_TEMP):
                try:
                    path.unlink()
                except OSError as exc:
                    logger.warning("cannot remove the stale overlay %s: %s", path, exc)
