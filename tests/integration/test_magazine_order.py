"""A magazine page made by code (tests/fixtures/magazine_page.py), read for real from its text
layer and from its scan: the article's title is read first, then its standfirst; the photo's
caption is read with the photo, after the title and before the columns under the photo, and
the columns are read left, then right."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagereader.evaluate.degrade import write_scans
from pagereader.evaluate.metrics import normalize
from pagereader.pipeline import parse

from fixtures.magazine_page import write_magazine_page


@pytest.mark.parametrize("scanned", [False, True], ids=["digital", "scan"])
def test_the_title_opens_the_article_and_the_caption_stays_with_its_photo(
    tmp_path: Path, scanned: bool
) -> None:
    page = write_magazine_page(tmp_path / "magazine.pdf")
    source = page.path
    if scanned:
        source = tmp_path / "magazine-scan.pdf"
        write_scans(page.path, source, "light")
    text = normalize(parse(source).pages[0].markdown, markdown=True)
    texts = [page.title, *page.standfirst, page.caption, *page.left, *page.right]
    places = [text.find(normalize(t)) for t in texts]
    assert all(p >= 0 for p in places), list(zip(texts, places, strict=True))
    assert places == sorted(places), list(zip(texts, places, strict=True))
