"""Output folder names: one safe, distinct path component per input."""

from __future__ import annotations

from pathlib import Path

from pagereader.render.names import output_names


def test_distinct_safe_names() -> None:
    paths = [
        Path("a/report.pdf"),
        Path("b/report.pdf"),
        Path("mix/deck.pdf"),
        Path("mix/sub/deck.pdf"),
        Path("mix/deck.pptx"),
        Path("x/...pdf"),
        Path("x/..pdf"),
        Path("x/Report.PDF"),
        Path("x/a b$c.png"),
    ]
    names = output_names(paths)
    values = list(names.values())
    assert len({v.casefold() for v in values}) == len(paths)
    for name in values:
        assert "/" not in name and "\\" not in name
        assert not name.startswith(".")
        assert name not in ("", ".", "..")
    assert names[Path("x/a b$c.png")] == "a_b_c"
    assert names[Path("a/report.pdf")] == "a-report"


def test_unshared_stems_keep_their_name() -> None:
    assert output_names([Path("one/deck.pdf"), Path("two/scan.png")]) == {
        Path("one/deck.pdf"): "deck",
        Path("two/scan.png"): "scan",
    }
