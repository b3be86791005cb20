"""A document read from a local copy (a remote input's download) is named in its result and its
errors by the name it goes by, so a failure points at the URI the user gave."""

from __future__ import annotations

import asyncio
from pathlib import Path

from pagereader.pipeline import aparse


def test_a_download_is_named_by_its_uri(tmp_path: Path) -> None:
    broken = tmp_path / "pagereader-in-1234" / "report.pdf"
    broken.parent.mkdir()
    broken.write_bytes(b"%PDF-1.7\nnot really a PDF")
    result = asyncio.run(aparse(broken, name="s3://bucket/in/report.pdf"))
    assert result.status == "failed"
    assert result.source == "s3://bucket/in/report.pdf"
    assert [e.file for e in result.errors] == ["s3://bucket/in/report.pdf"]
    assert result.errors[0].line().startswith("s3://bucket/in/report.pdf")
    assert "pagereader-in-1234" not in result.model_dump_json()


def test_without_a_name_the_path_is_the_name(tmp_path: Path) -> None:
    missing = tmp_path / "missing.pdf"
    result = asyncio.run(aparse(missing))
    assert result.source == str(missing)
    assert result.errors[0].file == str(missing)
