"""Inputs that share a name never share an output folder, and no folder escapes OUT."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

from adversarial.documents import text_pdf

Cli = Callable[..., CompletedProcess[str]]


def _sources(out: Path) -> dict[str, str]:
    """Output folder -> the source its document.json names, for every folder under ``out``."""
    return {
        doc.parent.name: json.loads(doc.read_text(encoding="utf-8"))["source"]
        for doc in out.rglob("document.json")
    }


def test_same_names_in_different_folders(tmp_path: Path, cli: Cli) -> None:
    a = text_pdf(tmp_path / "a" / "report.pdf", title="Alpha")
    b = text_pdf(tmp_path / "b" / "report.pdf", title="Beta")
    mix = tmp_path / "mix"
    top = text_pdf(mix / "deck.pdf", title="Top")
    sub = text_pdf(mix / "sub" / "deck.pdf", title="Sub")
    out = tmp_path / "O"
    done = cli("parse", a, b, mix, "-o", out)
    assert done.returncode == 0, done.stderr
    sources = _sources(out)
    assert sorted(sources.values()) == sorted(str(p) for p in (a, b, top, sub))
    for folder, source in sources.items():
        title = {a: "Alpha", b: "Beta", top: "Top", sub: "Sub"}[Path(source)]
        markdown = (out / folder / "document.md").read_text(encoding="utf-8")
        assert f"{title} page 1" in markdown
        assert folder in done.stderr  # the summary lists each output folder


def test_dots_only_name_stays_inside_out(tmp_path: Path, cli: Cli) -> None:
    dots = text_pdf(tmp_path / "in" / "...pdf", title="Dots")
    out = tmp_path / "deep" / "O"
    done = cli("parse", dots, "-o", out)
    assert done.returncode == 0, done.stderr
    written = list((tmp_path / "deep").rglob("document.json"))
    assert len(written) == 1
    assert written[0].parent.parent == out
    assert json.loads(written[0].read_text(encoding="utf-8"))["source"] == str(dots)


def test_outputs_inside_the_input_folder_are_never_read_back(tmp_path: Path, cli: Cli) -> None:
    """``parse docs -o docs/parsed`` run twice, then into a second OUT beside the first: the
    page overlays written the first time are never parsed as scans."""
    docs = tmp_path / "docs"
    text_pdf(docs / "memo.pdf", title="Memo")
    for out in (docs / "parsed", docs / "parsed", docs / "again"):
        done = cli("parse", docs, "-o", out, "--no-resume")
        assert done.returncode == 0, done.stderr
        assert sorted(_sources(out).values()) == [str(docs / "memo.pdf")]
        assert list(out.iterdir()) != [] and not (out / "001").exists()
    assert "holds pagereader's outputs" in done.stderr
    assert sorted(p.name for p in docs.iterdir()) == ["again", "memo.pdf", "parsed"]
