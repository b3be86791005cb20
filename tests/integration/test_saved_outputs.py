"""Commands that read an earlier output of ``parse`` read it one way: ``export-docling`` takes
the output folder as ``diff`` does, both refuse a document.json of a newer schema major version
(naming the file and both versions) and read the current and older minor versions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from docling_core.types.doc import DoclingDocument
from typer.testing import CliRunner

from pagereader.cli.main import app
from pagereader.render.json import SCHEMA_VERSION

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
runner = CliRunner()


@pytest.fixture(scope="module")
def output(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder ``pagereader parse examples/deck.pdf`` writes."""
    out = tmp_path_factory.mktemp("out")
    done = subprocess.run(
        [sys.executable, "-m", "pagereader", "parse", str(EXAMPLES / "deck.pdf"), "-o", str(out)],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return out / "deck"


def _with_version(output: Path, folder: Path, version: str) -> Path:
    """A copy of the output folder whose document.json says ``version``."""
    data = json.loads((output / "document.json").read_text(encoding="utf-8"))
    data["schema_version"] = version
    folder.mkdir()
    (folder / "document.json").write_text(json.dumps(data), encoding="utf-8")
    return folder


def test_export_docling_takes_the_output_folder_as_diff_does(output: Path, tmp_path: Path) -> None:
    from_folder, from_file = tmp_path / "folder.json", tmp_path / "file.json"
    done = runner.invoke(app, ["export-docling", str(output), "-o", str(from_folder)])
    assert done.exit_code == 0, done.output
    done = runner.invoke(
        app, ["export-docling", str(output / "document.json"), "-o", str(from_file)]
    )
    assert done.exit_code == 0, done.output
    assert from_folder.read_bytes() == from_file.read_bytes()
    pages = json.loads((output / "document.json").read_text(encoding="utf-8"))["pages"]
    doc = DoclingDocument.model_validate_json(from_folder.read_text(encoding="utf-8"))
    assert len(doc.pages) == len(pages)

    done = runner.invoke(app, ["diff", str(output), str(output), "-o", str(tmp_path / "d")])
    assert done.exit_code == 0, done.output
    report = (tmp_path / "d" / "diff.md").read_bytes()
    assert report.endswith(b"\n") and not report.endswith(b"\n\n")

    empty = tmp_path / "empty"
    empty.mkdir()
    done = runner.invoke(app, ["export-docling", str(empty), "-o", str(tmp_path / "e.json")])
    assert done.exit_code == 1 and str(empty) in done.output
    assert "without a document.json" in done.output


@pytest.mark.parametrize("command", ["export-docling", "diff"])
def test_a_newer_schema_major_version_is_refused(
    command: str, output: Path, tmp_path: Path
) -> None:
    newer = _with_version(output, tmp_path / "newer", "99.0")
    args = [str(newer), "-o", str(tmp_path / "x.json")]
    if command == "diff":
        args = [str(output), str(newer), "-o", str(tmp_path / "d")]
    done = runner.invoke(app, [command, *args])
    assert done.exit_code == 1
    assert str(newer / "document.json") in done.output
    assert "99.0" in done.output and SCHEMA_VERSION in done.output
    assert not (tmp_path / "x.json").exists() and not (tmp_path / "d").exists()


@pytest.mark.parametrize("version", [SCHEMA_VERSION, "2.0", "2.1", "2.9"])
def test_this_major_version_is_read(version: str, output: Path, tmp_path: Path) -> None:
    folder = _with_version(output, tmp_path / "v", version)
    done = runner.invoke(app, ["export-docling", str(folder), "-o", str(tmp_path / "v.json")])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "v.json").is_file()
