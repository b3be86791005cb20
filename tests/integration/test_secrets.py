"""Secrets stay secret: an engine's API key and a PDF's password reach the server and the PDF
reader, and no file that parse, batch or the service writes holds them (nor their output, nor
an options digest, so rotating a key keeps the page cache and the batch's resume)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from pagereader.batch.manifest import batch_options_digest
from pagereader.cli.main import app
from pagereader.config.options import Options
from pagereader.config.settings import resolve_options
from pagereader.engine_server.server import serve_in_thread
from pagereader.reuse.cache import options_digest
from pagereader.service.app import create_app

from fault_server import FaultServer
from fixtures import Fixtures

KEY = "sk-test-9f2c61d0-secret"
RUNNER = CliRunner()


@pytest.fixture(scope="module")
def fault() -> Iterator[tuple[FaultServer, str]]:
    server = FaultServer()
    with serve_in_thread(server.app()) as url:
        yield server, url


def _config(tmp_path: Path, url: str) -> Path:
    path = tmp_path / "engines.toml"
    path.write_text(
        f'[engines.vlm]\nkind = "openai"\nbase_url = "{url}"\nmodel = "fault"\n'
        f'api_key = "{KEY}"\ntimeout_s = 10\n\n[routes]\n"*.*" = ["vlm", "textlayer"]\n'
        "\n[verify]\nenabled = false\n",
        encoding="utf-8",
    )
    return path


def _holding(root: Path, *secrets: str) -> list[str]:
    """Every file under ``root`` whose bytes contain one of ``secrets``."""
    found = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        data = path.read_bytes()
        found += [f"{path.relative_to(root)}: {s}" for s in secrets if s.encode() in data]
    return found


def test_parse_writes_neither_the_key_nor_the_password(
    tmp_path: Path, fault: tuple[FaultServer, str], fixtures: Fixtures
) -> None:
    server, url = fault
    server.reset()
    out = tmp_path / "out"
    args = ["parse", str(fixtures.deck_pdf), str(fixtures.encrypted_pdf), "-o", str(out)]
    result = RUNNER.invoke(
        app, [*args, "--config", str(_config(tmp_path, url)), "--password", fixtures.password]
    )
    assert result.exit_code == 0, result.output
    assert server.bearers == {f"Bearer {KEY}"}  # the key did reach the server
    encrypted = (out / "encrypted" / "document.md").read_text(encoding="utf-8")
    assert "Confidential" in encrypted  # and the password the PDF reader
    assert _holding(out, KEY, fixtures.password) == []
    assert KEY not in result.output and fixtures.password not in result.output


def test_a_batch_writes_no_secret_and_its_workers_still_use_the_key(
    local_ray: None, tmp_path: Path, fault: tuple[FaultServer, str], fixtures: Fixtures
) -> None:
    server, url = fault
    server.reset()
    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "deck.pdf").write_bytes(fixtures.deck_pdf.read_bytes())
    out = tmp_path / "out"
    result = RUNNER.invoke(
        app, ["batch", str(inputs), "-o", str(out), "--config", str(_config(tmp_path, url))]
    )
    assert result.exit_code == 0, result.output
    assert server.bearers == {f"Bearer {KEY}"}
    assert (out / "_batch" / "manifest.sqlite").is_file()
    assert _holding(out, KEY) == []
    assert KEY not in result.output


def test_the_service_writes_and_answers_no_secret(
    tmp_path: Path, fault: tuple[FaultServer, str], fixtures: Fixtures
) -> None:
    server, url = fault
    server.reset()
    options = resolve_options(_config(tmp_path, url))
    data = tmp_path / "data"
    with serve_in_thread(create_app(data, options)) as base:
        client = httpx.Client(base_url=base.removesuffix("/v1"), timeout=30)
        files = {"file": ("deck.pdf", fixtures.deck_pdf.read_bytes(), "application/pdf")}
        job_id = client.post("/v1/documents", files=files).json()["id"]
        deadline = time.monotonic() + 120
        while client.get(f"/v1/jobs/{job_id}").json()["status"] in ("queued", "running"):
            assert time.monotonic() < deadline
            time.sleep(0.2)
        answers = [client.get(path).text for path in ("/v1/jobs", "/healthz", "/metrics")]
        answers.append(client.get(f"/v1/jobs/{job_id}/document.json").text)
        client.close()
    assert server.bearers == {f"Bearer {KEY}"}
    assert not any(KEY in text for text in answers)
    assert _holding(data, KEY) == []


def test_rotating_a_key_or_a_password_keeps_the_digests() -> None:
    def options(key: str, password: str | None) -> Options:
        engine = {"kind": "openai", "base_url": "http://x/v1", "model": "m", "api_key": key}
        return Options.model_validate({"engines": {"vlm": engine}, "password": password})

    a, b = options("old-key", "old-password"), options("new-key", "new-password")
    assert options_digest(a) == options_digest(b)
    assert batch_options_digest(a) == batch_options_digest(b)
    assert "old-key" not in a.model_dump_json() and "old-password" not in repr(a)
    assert a.engines["vlm"].api_key.get_secret_value() == "old-key"  # type: ignore[union-attr]
    assert a.pdf_password() == "old-password"
