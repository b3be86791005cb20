"""Overlay labels never cover text: inside every block's box, the overlay written by
``pagereader parse`` shows the page as a clean render of it does, except for the box outlines
themselves (a label over the box hid "BC - " of "BC - Sue Sepa", or a "5.1"). The PNG holds
at most 256 colours, so a pixel may move by a few levels; a label's fill or lettering moves
it by far more."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from pagereader.config.options import Options
from pagereader.render.overlay import draw_overlay
from pagereader.sources import open_source

from fixtures import Fixtures

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
OUTLINE = 5  # the widest outline drawn (a block not accepted as it is)
PALETTE_SLACK = 32
"""How far (0-255, per channel) the 256-colour PNG may move a pixel of the page."""


def _outlines(boxes: list[tuple[int, int, int, int]], shape: tuple[int, int]) -> np.ndarray:
    """The pixels any outline may cover: a band of OUTLINE (+1 for rounding) inside each edge."""
    band = np.zeros(shape, dtype=bool)
    for x0, y0, x1, y1 in boxes:
        outer = np.zeros(shape, dtype=bool)
        outer[max(0, y0 - 1) : y1 + 2, max(0, x0 - 1) : x1 + 2] = True
        inner = np.zeros(shape, dtype=bool)
        inner[y0 + OUTLINE + 1 : y1 - OUTLINE, x0 + OUTLINE + 1 : x1 - OUTLINE] = True
        band |= outer & ~inner
    return band


@pytest.mark.parametrize("name", ["deck.pdf", "scan.png", "dense", "legal"])
def test_labels_leave_the_text_of_every_block_as_the_page_shows_it(
    name: str, tmp_path: Path, fixtures: Fixtures
) -> None:
    path = {"dense": fixtures.dense_pdf, "legal": fixtures.legal_pdf}.get(name, EXAMPLES / name)
    done = subprocess.run(
        [sys.executable, "-m", "pagereader", "parse", str(path), "-o", str(tmp_path)],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    folder = tmp_path / path.stem
    document = json.loads((folder / "document.json").read_text(encoding="utf-8"))
    source = open_source(path, password=None, max_image_pixels=Options().render.max_image_pixels)
    checked = 0
    for page in document["pages"]:
        rendered = source.render(page["index"], Options().render.dpi)
        clean = np.asarray(draw_overlay(rendered.image, rendered.scale, []), dtype=np.int16)
        drawn = np.asarray(
            Image.open(folder / "pages" / f"{page['index']:03d}.png").convert("RGB"), np.int16
        )
        assert drawn.shape == clean.shape
        k = page["overlay_scale"]
        blocks = [item["block"] for item in page["blocks"]]
        boxes = [tuple(round(v * k) for v in block["bbox"]) for block in blocks]
        changed = np.abs(drawn - clean).max(axis=2) > PALETTE_SLACK
        changed &= ~_outlines(boxes, changed.shape)
        for block, (x0, y0, x1, y1) in zip(blocks, boxes, strict=True):
            inside = changed[max(0, y0) : y1, max(0, x0) : x1]
            assert not inside.any(), (
                f"page {page['index']} block {block['order']} ({block['kind']}): "
                f"{int(inside.sum())} pixels inside its box differ from the clean page"
            )
            checked += 1
    source.close()
    assert checked >= len(document["pages"])  # every page has blocks to check
