"""The summary of ``pagereader parse`` stays readable where the demo is read: in a narrow
terminal or piped into another program it is one line per document with the path whole; a wide
terminal gets the table."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCUMENTS = ("examples/deck.pdf", "examples/scan.png")
FIGURES = ("output", "status", "pages", "classes", "seconds", "errors", "warnings", "review")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _parse(out: Path, env: dict[str, str]) -> str:
    """The real CLI's stderr (where the summary goes), piped, escape codes removed."""
    done = subprocess.run(
        [sys.executable, "-m", "pagereader", "parse", *DOCUMENTS, "-o", str(out)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, **env},
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return ANSI.sub("", done.stderr)


def test_narrow_or_piped_summary_is_one_whole_line_per_document(tmp_path: Path) -> None:
    stderr = _parse(tmp_path, {"COLUMNS": "80", "TTY_COMPATIBLE": "", "FORCE_COLOR": ""})
    lines = stderr.splitlines()
    for document in DOCUMENTS:
        mine = [line for line in lines if document in line]
        assert len(mine) == 1, f"{document} must be named whole on exactly one line:\n{stderr}"
        words = mine[0].split()
        assert words[0] == document
        written = json.loads((tmp_path / Path(document).stem / "document.json").read_text("utf-8"))
        figures = dict(zip(words[1::2], words[2::2], strict=True))
        assert list(figures) == list(FIGURES), mine[0]
        assert figures["output"] == Path(document).stem + "/"
        assert figures["status"] == written["status"] == "ok"
        assert figures["pages"] == str(len(written["pages"]))
        classes = {page["decision"]["page_class"] for page in written["pages"]}
        assert {c.split(":")[0] for c in figures["classes"].split(",")} == classes
    # no word of the summary is split: every column name appears whole, none in fragments
    for name in FIGURES:
        assert sum(f" {name} " in line for line in lines) == len(DOCUMENTS), stderr


def test_wide_terminal_gets_the_table(tmp_path: Path) -> None:
    stderr = _parse(tmp_path, {"COLUMNS": "200", "TTY_COMPATIBLE": "1"})
    header = next(line for line in stderr.splitlines() if "file" in line and "status" in line)
    cells = [cell.strip() for cell in re.split(r"[┃│]", header) if cell.strip()]
    assert cells == ["file", *FIGURES]
    rows = [line for line in stderr.splitlines() if line.startswith("│")]
    assert [re.split(r"\s*│\s*", row)[1] for row in rows] == list(DOCUMENTS)
