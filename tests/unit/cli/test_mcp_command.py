"""`pagereader mcp` refuses a bad start in one line, before it serves: no root, a root that is
not a folder, an unknown transport, an open HTTP server on a reachable address."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pagereader.cli.main import app


def _errors(args: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[str]]:
    monkeypatch.delenv("PAGEREADER_TOKENS", raising=False)
    result = CliRunner().invoke(app, ["mcp", *args])
    assert "Traceback" not in result.output
    return result.exit_code, [line for line in result.output.splitlines() if line.strip()]


def test_a_root_is_required(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, lines = _errors(["--out", str(tmp_path / "out")], monkeypatch)
    assert code == 2 and lines == [
        "error: give at least one --root DIR: the folder whose documents may be read"
    ]


def test_a_root_must_be_a_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, lines = _errors(["--root", str(tmp_path / "absent")], monkeypatch)
    assert code == 2 and len(lines) == 1 and "is not a folder" in lines[0]
    assert str(tmp_path / "absent") in lines[0]


def test_an_unknown_transport(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, lines = _errors(["--root", str(tmp_path), "--transport", "sse"], monkeypatch)
    assert code == 2 and lines == ["error: --transport is stdio or http, got 'sse'"]


def test_an_open_http_server_only_on_loopback(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    args = ["--root", str(tmp_path), "--out", str(tmp_path / "out"), "--transport", "http"]
    code, lines = _errors([*args, "--host", "0.0.0.0"], monkeypatch)
    assert code == 2 and len(lines) == 1
    assert "refusing to listen on 0.0.0.0 without API tokens" in lines[0]
    assert "parse and read every document under the roots" in lines[0]
