"""How a batch shares its cross-document page store: where it lives and how workers reach it.

``shared``: a local OUT on a one-node cluster; every worker opens OUT/_batch/pages.sqlite
itself (WAL, several processes of one machine), so a page read by one worker is found by the
others within the run. ``private``: an object-store OUT, or a cluster of several nodes (SQLite
must not be shared over a network filesystem); each worker reads a private copy of the store
left by earlier runs, adds its own pages, and hands its new rows to the driver at the end,
which merges them into OUT/_batch/pages.sqlite for the next run.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pagereader.batch.storage import BATCH_DIR, Destination
from pagereader.errors import OutputError
from pagereader.reuse.page_store import PageStore, Row
from pagereader.runtime import SharedPage
from pagereader.types import PageResult

logger = logging.getLogger(__name__)

PAGES_NAME = "pages.sqlite"
PAGES_RELATIVE = f"{BATCH_DIR}/{PAGES_NAME}"
Sharing = Literal["off", "shared", "private"]


def sharing_mode(destination: Destination, enabled: bool, nodes: int) -> Sharing:
    """Shared on a local OUT with one node; private per worker otherwise."""
    if not enabled:
        return "off"
    return "shared" if not destination.remote and nodes <= 1 else "private"


class LabelledPages:
    """The store as one document sees it: pages are named by the document's input (its URI,
    not the temporary file a remote input was downloaded to)."""

    def __init__(self, store: PageStore, label: str) -> None:
        self.store = store
        self.label = label

    def find(
        self, raster: str, layer: str, options: str, source: str, page: int
    ) -> SharedPage | None:
        return self.store.find(raster, layer, options, self.label, page)

    def keep(self, raster: str, layer: str, options: str, source: str, result: PageResult) -> None:
        self.store.keep(raster, layer, options, self.label, result)


@dataclass
class WorkerPages:
    """A worker's store: the shared file, or a private copy with the rowid it started from."""

    store: PageStore
    first_new: int = 0
    folder: Path | None = None

    @classmethod
    def open(cls, mode: Sharing, destination: Destination) -> WorkerPages | None:
        """The worker's store, or None when reuse is off or the store cannot be opened (then
        the worker reads every page: the store only saves work)."""
        if mode == "off":
            return None
        try:
            return cls._open(mode, destination)
        except (OSError, OutputError) as exc:
            logger.warning("page reuse off in this worker: %s", exc)
            return None

    @classmethod
    def _open(cls, mode: Sharing, destination: Destination) -> WorkerPages:
        if mode == "shared":
            return cls(PageStore(Path(destination.out) / PAGES_RELATIVE))
        folder = Path(tempfile.mkdtemp(prefix="pagereader-pages-"))
        path = folder / PAGES_NAME
        try:
            earlier = destination.get_bytes(PAGES_RELATIVE)
        except OSError as exc:
            logger.warning("no earlier page store read from %s: %s", destination.out, exc)
            earlier = None
        if earlier is not None:
            path.write_bytes(earlier)
        store = PageStore(path)
        return cls(store, store.last_row(), folder)

    def finish(self) -> list[Row]:
        """Close; a private store gives its new rows (to be merged) and is removed."""
        rows = [row for chunk in self.store.rows_after(self.first_new) for row in chunk]
        rows = rows if self.folder is not None else []
        self.store.close()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
        return rows


def merge_rows(destination: Destination, parts: Iterable[list[Row]]) -> int:
    """Merge workers' new rows into OUT's store (downloaded and uploaded again on an object
    store); returns how many rows the store holds."""
    with destination.local_copy(PAGES_RELATIVE) as path:
        store = PageStore(path)
        try:
            for rows in parts:
                store.insert(rows)
            return store.count()
        finally:
            store.close()
