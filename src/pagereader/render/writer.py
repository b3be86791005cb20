"""Writes a document's outputs: OUT/<name>/document.md, document.json, pages/NNN.png,
timings.json and review.md. Overlays are written as pages finish, so a long document shows
progress on disk."""

from __future__ import annotations

import json
from pathlib import Path

from pagereader.render.json import document_json_text
from pagereader.render.overlay import draw_overlay
from pagereader.render.review import write_review
from pagereader.timing import timings_document
from pagereader.types import BlockResult, DocumentResult, PageResult


class DocumentWriter:
    """Output folder of one document."""

    def __init__(self, folder: Path, overlays: bool = True) -> None:
        self.folder = folder
        self.overlays = overlays
        self.folder.mkdir(parents=True, exist_ok=True)

    def overlay_path(self, index: int) -> Path:
        return self.folder / "pages" / f"{index:03d}.png"

    def write_overlay(self, page: PageResult, image: object, scale: float) -> None:
        """Draw and save the page's overlay (``image`` is the page raster)."""
        if not self.overlays or image is None:
            return
        from PIL import Image

        assert isinstance(image, Image.Image)
        path = self.overlay_path(page.index)
        path.parent.mkdir(parents=True, exist_ok=True)
        blocks: tuple[BlockResult, ...] = page.blocks
        draw_overlay(image, scale, blocks).save(path, optimize=False)

    def finish(self, result: DocumentResult, budget_s: float, wall_s: float) -> None:
        """Write the Markdown, the JSON and the timings."""
        (self.folder / "document.md").write_text(result.markdown, encoding="utf-8")
        (self.folder / "document.json").write_text(document_json_text(result), encoding="utf-8")
        timings = timings_document(result.pages, budget_s, wall_s)
        (self.folder / "timings.json").write_text(json.dumps(timings, indent=2), encoding="utf-8")
        write_review(self.folder, result)


def output_names(paths: list[Path]) -> dict[Path, str]:
    """A folder name per input: its stem, or stem-suffix where two inputs share a stem."""
    stems: dict[str, int] = {}
    for path in paths:
        stems[path.stem] = stems.get(path.stem, 0) + 1
    return {
        path: path.stem if stems[path.stem] == 1 else f"{path.stem}-{path.suffix.lstrip('.')}"
        for path in paths
    }
