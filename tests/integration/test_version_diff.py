"""``pagereader diff`` on two versions of a statute made by code (tests/fixtures/
statute_versions.py), in Traditional Chinese and in Korean, digital and scanned, read for real:
it reports exactly the edits the fixture made (the modal change first, then the added, the
deleted and the renumbered article, each with its pages), writes nothing else, says "no
changes" for a document against itself, reads a parse output folder as a version, and fails
with the file's name when a version cannot be read."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pagereader.cli.main import app

from fixtures.statute_versions import KO, ZH, Statute, write_versions

STATUTES = {"zh-Hant": ZH, "ko": KO}


def _diff(tmp_path: Path, old: Path, new: Path, *flags: str) -> tuple[int, str, dict[str, Any]]:
    out = tmp_path / "diff"
    result = CliRunner().invoke(app, ["diff", str(old), str(new), "-o", str(out), *flags])
    data = json.loads((out / "diff.json").read_text(encoding="utf-8")) if out.exists() else {}
    return result.exit_code, result.output, data


Row = tuple[str, str | None, str | None, tuple[int, ...], tuple[int, ...]]


def _expected(statute: Statute) -> list[Row]:
    """(kind, old number, new number, old pages, new pages) as the fixture built them:
    articles 1-3 on page 1 and 4-6 on page 2 of both versions."""
    assert statute.new()[2] == statute.old[3] and statute.new()[3] == statute.added
    return [
        ("changed", "2", "2", (1,), (1,)),
        ("added", None, "4", (), (2,)),
        ("deleted", "3", None, (1,), ()),
        ("renumbered", "4", "3", (2,), (1,)),
    ]


MODAL_CHANGE = {"zh-Hant": "得->應", "ko": "할수있다->하여야한다"}
"""The fixture's modal edit as the verifier names a critical token change (spaces dropped)."""
MODAL_WORDS = {"zh-Hant": ("得", "應"), "ko": ("이용할 수 있다", "이용하여야 한다")}
"""The words the fixture's modal edit replaces: a Han character alone, whole Korean eojeols."""


@pytest.mark.slow
@pytest.mark.parametrize("scanned", [False, True], ids=["digital", "scanned"])
@pytest.mark.parametrize("lang", list(STATUTES))
def test_the_edits_and_nothing_else_modal_first(tmp_path: Path, lang: str, scanned: bool) -> None:
    statute = STATUTES[lang]
    pair = write_versions(statute, tmp_path / "docs", scanned)
    code, output, data = _diff(tmp_path, pair.old, pair.new, "--lang", lang)
    assert code == 0, output
    articles = [c for c in data["changes"] if c["unit"] == "article"]
    got = [
        (
            c["kind"],
            c["old"] and c["old"]["number"],
            c["new"] and c["new"]["number"],
            tuple(c["old_pages"]),
            tuple(c["new_pages"]),
        )
        for c in articles
    ]
    assert got == _expected(statute)
    modal = data["changes"][0]
    assert modal == articles[0] and modal["critical"] == [MODAL_CHANGE[lang]]
    assert [(h["old"], h["new"]) for h in modal["hunks"]] == [MODAL_WORDS[lang]]
    assert [c["critical"] for c in articles[1:]] == [[], [], []]
    assert articles[3]["hunks"] == []  # renumbered, its text unchanged
    passages = [c for c in data["changes"] if c["unit"] == "passage"]
    if not scanned:
        assert passages == []
    # the only text outside the articles is the title on page 1: OCR may read it differently
    assert all(set(c["old_pages"]) | set(c["new_pages"]) <= {1} for c in passages), passages
    assert data["summary"]["unchanged"] == 3
    md = (tmp_path / "diff" / "diff.md").read_text(encoding="utf-8")
    sections = [line for line in md.splitlines() if line.startswith("## ")]
    assert [line for line in sections if "passages" not in line] == [
        "## Critical changes",
        "## Added articles",
        "## Deleted articles",
        "## Renumbered articles",
    ] + (["## Punctuation only"] if any(c["punctuation_only"] for c in passages) else [])
    assert "<del>" in md and "<ins>" in md


def test_a_document_against_itself_has_no_changes(tmp_path: Path) -> None:
    pair = write_versions(ZH, tmp_path / "docs", scanned=False)
    code, output, data = _diff(tmp_path, pair.old, pair.old)
    assert code == 0, output
    assert "no changes" in output
    assert data["changes"] == [] and data["summary"]["unchanged"] == len(ZH.old)
    assert "**No changes.**" in (tmp_path / "diff" / "diff.md").read_text(encoding="utf-8")


def test_a_parse_output_is_a_version(tmp_path: Path) -> None:
    pair = write_versions(KO, tmp_path / "docs", scanned=False)
    parsed = CliRunner().invoke(
        app, ["parse", str(pair.old), "-o", str(tmp_path / "parsed"), "--no-overlays"]
    )
    assert parsed.exit_code == 0, parsed.output
    folder = tmp_path / "parsed" / pair.old.stem
    code, output, data = _diff(tmp_path, folder, pair.new)
    assert code == 0, output
    assert [c["kind"] for c in data["changes"]] == ["changed", "added", "deleted", "renumbered"]
    assert data["old"]["source"].endswith(pair.old.name)


def test_a_version_that_cannot_be_read_fails_naming_it(tmp_path: Path) -> None:
    pair = write_versions(ZH, tmp_path / "docs", scanned=False)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(pair.old.read_bytes()[:400])
    code, output, _ = _diff(tmp_path, broken, pair.new)
    assert code == 1
    assert "broken.pdf" in output and "error:" in output
    assert not (tmp_path / "diff").exists()
    stray = tmp_path / "not-a-document.json"
    shutil.copy(pair.old, stray)
    code, output, _ = _diff(tmp_path, stray, pair.new)
    assert code == 1 and "not-a-document.json" in output


def test_a_version_with_a_failed_page_is_named_and_exits_1(tmp_path: Path) -> None:
    """A parse output whose page 2 failed: the diff is written, its notes and the command's
    errors name the file and the page, and the exit code is 1."""
    pair = write_versions(ZH, tmp_path / "docs", scanned=False)
    parsed = CliRunner().invoke(
        app, ["parse", str(pair.new), "-o", str(tmp_path / "parsed"), "--no-overlays"]
    )
    assert parsed.exit_code == 0, parsed.output
    saved = tmp_path / "parsed" / pair.new.stem / "document.json"
    data = json.loads(saved.read_text(encoding="utf-8"))
    data["status"] = "partial"
    data["pages"] = [p for p in data["pages"] if p["index"] != 2]
    data["structure"] = []
    data["errors"] = [
        {"file": str(pair.new), "page": 2, "stage": "recognize", "message": "engine failed"}
    ]
    saved.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, output, diff = _diff(tmp_path, pair.old, saved)
    assert code == 1
    assert f"{pair.new} page 2: engine failed" in output.replace("\n", "")
    assert any("page 2" in note and "may be missing" in note for note in diff["notes"])
    md = (tmp_path / "diff" / "diff.md").read_text(encoding="utf-8")
    assert "page 2: engine failed" in md


def test_documents_without_articles_are_compared_as_text(tmp_path: Path) -> None:
    deck = Path(__file__).parents[2] / "examples" / "deck.pdf"
    code, output, data = _diff(tmp_path, deck, deck)
    assert code == 0, output
    assert data["mode"] == "text" and data["changes"] == []
    assert "no changes" in output
