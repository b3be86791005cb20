"""Notes in a hand-like script on ruled paper, made by code (tests/fixtures/handwritten_notes.py)
and read for real: the page's one text detection misses the end of a slanted line; the marks
it left outside every line are detected again, so every word of the notes is read, once."""

from __future__ import annotations

from pathlib import Path

from pagereader.evaluate.metrics import normalize
from pagereader.pipeline import parse

from fixtures.handwritten_notes import NOTES, write_notes


def test_a_slanted_lines_end_the_detection_missed_is_read(tmp_path: Path) -> None:
    scan = write_notes(tmp_path / "notes.pdf", seed=6)
    text = normalize(parse(scan).pages[0].markdown, markdown=True)
    words = [w for line in NOTES for w in line.split()]
    assert [w for w in words if normalize(w) not in text] == []
    last = NOTES[-1]
    assert text.count(normalize(last.split()[-1])) == 1, text  # read once, not twice
    assert text.find(normalize("Return the")) < text.find(normalize("Friday"))
