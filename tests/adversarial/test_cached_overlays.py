"""Every finished page has its overlay, also a page served from the page cache; overlays of
pages an earlier run drew but this one did not are removed."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

from PIL import Image

from adversarial.documents import text_pdf

Cli = Callable[..., CompletedProcess[str]]


def _overlays(folder: Path) -> list[str]:
    return sorted(p.name for p in (folder / "pages").glob("*.png"))


def test_cache_hits_get_overlays(tmp_path: Path, cli: Cli) -> None:
    first = text_pdf(tmp_path / "in" / "first.pdf", pages=3)
    copy = tmp_path / "in" / "copy.pdf"
    shutil.copyfile(first, copy)
    out = tmp_path / "O"
    assert cli("parse", first, "-o", out).returncode == 0
    # the copy has the same bytes: all of its pages come from the cache
    done = cli("parse", copy, "-o", out, "--debug")
    assert done.returncode == 0, done.stderr
    assert _overlays(out / "copy") == ["001.png", "002.png", "003.png"]
    with Image.open(out / "copy" / "pages" / "002.png") as image:
        image.verify()
    # a rerun over the same output folder (as after a kill): again every overlay
    shutil.rmtree(out / "first" / "pages")
    assert cli("parse", first, "-o", out).returncode == 0
    assert _overlays(out / "first") == ["001.png", "002.png", "003.png"]


def test_overlays_of_other_pages_are_removed(tmp_path: Path, cli: Cli) -> None:
    deck = text_pdf(tmp_path / "deck.pdf", pages=4)
    out = tmp_path / "O"
    assert cli("parse", deck, "-o", out, "--pages", "1-3").returncode == 0
    assert _overlays(out / "deck") == ["001.png", "002.png", "003.png"]
    assert cli("parse", deck, "-o", out, "--pages", "2,4").returncode == 0
    assert _overlays(out / "deck") == ["002.png", "004.png"]
