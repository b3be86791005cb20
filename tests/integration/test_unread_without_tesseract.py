"""A scan whose text no installed engine can read is never "ok" and silent: without Tesseract
(the base install is wheels only, and the embedded OCR has no Hangul), a scanned Korean page
is `partial` with an error naming Tesseract's Korean model and the command that installs it,
in document.json, review.md and the summary; a Traditional Chinese scan read the same way stays
`ok` without it, and with Tesseract the Korean page is read. Before, the Korean page came out
as a figure marker, `ok`, with "Nothing to review"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from pagereader.engines.tesseract import TESSERACT_INSTALL

from shared_data import shared

KOREAN = ("constitution_1987-scan-light.pdf", "constitution_1987.p1.ref.txt")
CHINESE = "N0030001-scan-light.pdf"


def _parse(out: Path, *files: Path, tesseract: bool) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    if not tesseract:  # the binary pagereader runs, as settings.py reads it, is not there
        env["PAGEREADER_TESSERACT"] = str(out / "no-tesseract-here" / "tesseract")
    command = [sys.executable, "-m", "pagereader", "parse", *map(str, files)]
    return subprocess.run(
        [*command, "--pages", "1", "-o", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )


def _document(folder: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((folder / "document.json").read_text("utf-8"))
    return data


def test_a_korean_scan_without_tesseract_is_partial_and_says_what_to_install(
    tmp_path: Path,
) -> None:
    korean, chinese = shared("eval", "real_legal", KOREAN[0]), shared("eval", "real_legal", CHINESE)
    done = _parse(tmp_path, korean, chinese, tesseract=False)
    assert done.returncode == 1, done.stderr  # a partial document is an error of the run
    folder = tmp_path / korean.stem
    document = _document(folder)
    assert document["status"] == "partial"
    [error] = document["pages"][0]["errors"]  # type: ignore[index]
    assert "may be Korean" in error["message"] and "not installed" in error["message"]
    assert TESSERACT_INSTALL in error["hint"]
    review = (folder / "review.md").read_text("utf-8")
    assert "may be Korean" in review and TESSERACT_INSTALL in review
    output = (done.stdout + done.stderr).splitlines()  # the summary: one line a document
    summary = [line for line in output if korean.name in line and " status " in line]
    assert len(summary) == 1, output
    assert "status partial" in summary[0] and "errors 1" in summary[0]
    assert "may be Korean" in done.stderr
    # no false alarm: the Chinese scan, read by the same embedded OCR, is read and ok
    other = _document(tmp_path / chinese.stem)
    assert other["status"] == "ok" and not other["errors"]


def test_with_tesseract_the_korean_scan_is_read(tmp_path: Path) -> None:
    korean = shared("eval", "real_legal", KOREAN[0])
    reference = shared("eval", "real_legal", KOREAN[1]).read_text("utf-8").split()
    done = _parse(tmp_path, korean, tesseract=True)
    assert done.returncode == 0, done.stderr
    document = _document(tmp_path / korean.stem)
    assert document["status"] == "ok" and not document["errors"]
    markdown = (tmp_path / korean.stem / "document.md").read_text("utf-8")
    found = sum(1 for word in reference if word in markdown)
    assert found >= 0.8 * len(reference)
