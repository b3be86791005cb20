"""Bad input: one clear line naming the file, the other files still parsed, exit code 1."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pagereader.config.options import Options
from pagereader.errors import PasswordRequiredError
from pagereader.pipeline import parse

from fixtures import Fixtures


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The real console entry point in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "pagereader", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {}), "COLUMNS": "200"},
        timeout=600,
        check=False,
    )


def test_each_bad_file_gets_one_line_and_the_good_one_is_written(
    fixtures: Fixtures, tmp_path: Path
) -> None:
    bad = [
        fixtures.corrupt_pdf,
        fixtures.empty_pdf,
        fixtures.encrypted_pdf,
        fixtures.unsupported_file,
        fixtures.png_bomb,
    ]
    done = run_cli(
        "parse", *map(str, bad), str(fixtures.legal_pdf), "-o", str(tmp_path), "--no-resume"
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr + done.stdout
    errors = [line for line in done.stderr.splitlines() if line.startswith("error ")]
    for path in bad:
        mine = [line for line in errors if path.name in line]
        assert len(mine) == 1, (path.name, errors)
    joined = "\n".join(errors)
    assert "encrypted" in joined and "--password" in joined
    assert "0 bytes" in joined
    assert "unsupported file type '.xyz'" in joined
    assert "30000x30000" in joined or "too large" in joined
    good = json.loads((tmp_path / "legal" / "document.json").read_text())
    assert good["status"] == "ok" and len(good["pages"]) == 3
    assert (tmp_path / "legal" / "document.md").read_text().count("<!-- page") == 3


def test_encrypted_pdf_opens_with_password(fixtures: Fixtures) -> None:
    result = parse(fixtures.encrypted_pdf, Options(password=fixtures.password))
    assert result.status == "ok"
    wrong = parse(fixtures.encrypted_pdf, Options(password="nope"))
    assert wrong.status == "failed"
    assert "wrong password" in wrong.errors[0].message
    assert PasswordRequiredError.default_hint in wrong.errors[0].hint


def test_debug_shows_the_traceback_of_a_config_error(tmp_path: Path, fixtures: Fixtures) -> None:
    config = tmp_path / "c.toml"
    config.write_text('[routes]\n"scan.text" = ["missing"]\n')
    quiet = run_cli(
        "parse", str(fixtures.legal_pdf), "--config", str(config), "-o", str(tmp_path / "o")
    )
    assert quiet.returncode == 1
    assert "missing" in quiet.stderr and "Traceback" not in quiet.stderr
    loud = run_cli(
        "parse",
        str(fixtures.legal_pdf),
        "--config",
        str(config),
        "-o",
        str(tmp_path / "o"),
        "--debug",
    )
    assert "Traceback" in loud.stderr


def test_binary_ppt_without_libreoffice_says_how_to_get_it(
    fixtures: Fixtures, tmp_path: Path
) -> None:
    """A binary .ppt holds no XML to read: only LibreOffice reads it (a PPTX is read from its
    XML without it: test_office_without_renderer.py)."""
    ppt = tmp_path / "old.ppt"
    ppt.write_bytes(bytes.fromhex("d0cf11e0a1b11ae1") + bytes(504))  # an OLE2 compound file
    done = run_cli(
        "parse",
        str(ppt),
        str(fixtures.legal_pdf),
        "-o",
        str(tmp_path),
        env={"PAGEREADER_SOFFICE": "/nonexistent/soffice"},
    )
    assert done.returncode == 1
    line = next(ln for ln in done.stderr.splitlines() if ppt.name in ln)
    assert "LibreOffice" in line and "apt-get install" in line
    assert (tmp_path / "legal" / "document.json").exists()


def test_missing_page_is_reported_and_others_kept(fixtures: Fixtures) -> None:
    count = len(fixtures.pages(fixtures.legal_pdf))
    result = parse(fixtures.legal_pdf, Options(pages=(2, 9)))
    assert result.status == "ok"
    assert [p.index for p in result.pages] == [2]
    assert result.warnings == (
        f"1 selected page(s) past the end ignored; the document has {count} pages",
    )
    nothing = parse(fixtures.legal_pdf, Options(pages=(9,)))
    assert nothing.status == "failed"
    assert "no selected page exists" in nothing.errors[0].line()


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract")
def test_rerun_resumes_from_the_cache(fixtures: Fixtures, tmp_path: Path) -> None:
    first = run_cli("parse", str(fixtures.scan_png), "-o", str(tmp_path))
    assert first.returncode == 0, first.stderr
    second = run_cli("parse", str(fixtures.scan_png), "-o", str(tmp_path))
    assert second.returncode == 0
    a = json.loads((tmp_path / fixtures.scan_png.stem / "document.json").read_text())
    assert a["pages"][0]["blocks"], "cached page lost its blocks"
    timings = json.loads((tmp_path / fixtures.scan_png.stem / "timings.json").read_text())
    assert timings["summary"]["pages"] == 1
    with sqlite3.connect(tmp_path / ".pagereader-cache.sqlite") as db:
        assert db.execute("SELECT COUNT(*) FROM pages").fetchone() == (1,)


def test_a_page_that_fails_is_reported_and_the_others_are_kept(
    fixtures: Fixtures, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pagereader.errors import CorruptFileError
    from pagereader.pipeline import aparse_to_folder, make_context
    from pagereader.sources.pdf import PdfSource

    render = PdfSource.render

    def broken_second_page(self: PdfSource, index: int, dpi: int):  # type: ignore[no-untyped-def]
        if index == 2:
            raise CorruptFileError(
                "cannot render (damaged content stream)", file=self.path, page=index
            )
        return render(self, index, dpi)

    monkeypatch.setattr(PdfSource, "render", broken_second_page)
    import asyncio

    result = asyncio.run(aparse_to_folder(fixtures.legal_pdf, tmp_path / "legal", make_context()))
    assert result.status == "partial"
    assert [bool(p.blocks) for p in result.pages] == [True, False, True]
    assert result.errors[0].page == 2
    assert "legal.pdf page 2: cannot render" in result.errors[0].line()
    saved = json.loads((tmp_path / "legal" / "document.json").read_text())
    assert saved["status"] == "partial" and len(saved["pages"]) == 3
    markdown = (tmp_path / "legal" / "document.md").read_text()
    assert "Article 1" in markdown and "제1조" in markdown and "第一條" not in markdown
    assert "<!-- page 2 could not be read: cannot render" in markdown
