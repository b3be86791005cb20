"""``pagereader doctor`` run for real: on this machine as it is, with Tesseract and LibreOffice
off the PATH, and against served engines on loopback (none listening, and serve-engine)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pagereader.engine_server.server import DEFAULT_MODEL, create_app, serve_in_thread

WIDTH = 80
# libraries of the extras: the base install has none of them, so doctor must import none
EXTRA_LIBRARIES = ("reportlab", "matplotlib", "fastapi", "starlette", "uvicorn", "ray", "mcp")


def doctor(*args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGEREADER_")}
    if path is not None:
        env["PATH"] = path
    return subprocess.run(
        [sys.executable, "-m", "pagereader", "doctor", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def checks(done: subprocess.CompletedProcess[str]) -> dict[str, dict[str, Any]]:
    report = json.loads(done.stdout)
    return {check["name"]: check for check in report["checks"]}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def engine_config(folder: Path, url: str, model: str) -> Path:
    config = folder / "engines.toml"
    config.write_text(
        f'[engines.gpu]\nkind = "openai"\nbase_url = "{url}"\nmodel = "{model}"\n',
        encoding="utf-8",
    )
    return config


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    with serve_in_thread(create_app()) as url:
        yield url


@pytest.mark.skipif(
    shutil.which("tesseract") is None or shutil.which("soffice") is None,
    reason="needs Tesseract and LibreOffice installed",
)
def test_this_machine_as_it_is() -> None:
    listed = subprocess.run(
        ["tesseract", "--list-langs"], capture_output=True, text=True, check=True
    ).stdout.splitlines()[1:]
    languages = sorted(line.strip() for line in listed if line.strip())
    version = subprocess.run(
        ["soffice", "--version"], capture_output=True, text=True, check=True
    ).stdout.split()[:2]

    done = doctor("--json")
    assert done.returncode == 0, done.stderr
    found = checks(done)
    assert found["tesseract"]["ok"] is True
    assert found["tesseract"]["detail"].endswith("languages: " + ", ".join(languages))
    for lang in ("eng", "chi_tra", "kor"):
        assert found[f"tesseract {lang}"]["ok"] is (lang in languages)
    assert found["libreoffice"]["ok"] is True
    assert found["libreoffice"]["detail"].startswith(" ".join(version))
    assert found["rapidocr"]["ok"] is True and found["layout"]["ok"] is True
    assert not any(check["blocking"] for check in found.values())

    text = doctor()
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert all(len(line) <= WIDTH for line in lines), [ln for ln in lines if len(ln) > WIDTH]
    tesseract = next(i for i, line in enumerate(lines) if line.startswith("ok    tesseract:"))
    # the languages line may wrap: join it with its continuation lines
    joined = lines[tesseract]
    for line in lines[tesseract + 1 :]:
        if not line.startswith("        "):
            break
        joined += " " + line.strip()
    assert joined.endswith("languages: " + ", ".join(languages))
    assert any(line.startswith("ok    libreoffice: " + " ".join(version)) for line in lines)
    missing = sum(1 for check in found.values() if not check["ok"])
    assert lines[-1] == f"{len(found) - missing} ok, {missing} missing"


def test_without_tesseract_and_libreoffice_on_the_path() -> None:
    bare = str(Path(sys.executable).parent)
    assert shutil.which("tesseract", path=bare) is None
    assert shutil.which("soffice", path=bare) is None

    done = doctor("--json", path=bare)
    assert done.returncode == 0, done.stderr
    found = checks(done)
    tesseract, office = found["tesseract"], found["libreoffice"]
    assert tesseract["ok"] is False and office["ok"] is False
    assert "tesseract not found" in tesseract["detail"]
    assert "Korean scans" in tesseract["costs"]
    assert tesseract["fix"].startswith("apt-get install -y tesseract-ocr ")
    assert "tesseract-ocr-kor" in tesseract["fix"]
    for suffix in (".pptx", ".docx", ".ppt", ".odp"):
        assert suffix in office["costs"]
    assert office["fix"].startswith("apt-get install -y libreoffice-impress")
    assert "tesseract eng" not in found  # no languages are claimed without the program
    assert not tesseract["blocking"] and not office["blocking"]

    text = doctor(path=bare)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    start = lines.index("miss  tesseract: tesseract not found on PATH")
    assert lines[start + 1].startswith("      costs: Korean scans")
    office_at = lines.index("miss  libreoffice: soffice not found on PATH")
    assert lines[office_at + 1].startswith("      costs: .docx, .pptx read from their XML only")
    assert any(
        line.startswith("      fix: apt-get install -y libreoffice-impress") for line in lines
    )


def test_an_engine_nobody_serves_fails_the_doctor(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    done = doctor("--config", str(engine_config(tmp_path, url, "PaddleOCR-VL")))
    assert done.returncode == 1
    failing = [line for line in done.stdout.splitlines() if line.startswith("FAIL")]
    assert failing and failing[0].startswith(f"FAIL  engine gpu: {url}: cannot reach it")
    assert done.stdout.splitlines()[-1].endswith("failing: engine gpu")


def test_a_served_engine_is_ok(tmp_path: Path, served: str) -> None:
    done = doctor("--json", "--config", str(engine_config(tmp_path, served, DEFAULT_MODEL)))
    assert done.returncode == 0, done.stdout + done.stderr
    engine = checks(done)["engine gpu"]
    assert engine["ok"] is True and engine["blocking"] is False
    assert engine["detail"] == f"{served} serves {DEFAULT_MODEL}"
    assert json.loads(done.stdout)["ok"] is True


def test_a_model_the_server_does_not_serve_fails(tmp_path: Path, served: str) -> None:
    done = doctor("--json", "--config", str(engine_config(tmp_path, served, "not-served")))
    assert done.returncode == 1
    engine = checks(done)["engine gpu"]
    assert engine["ok"] is False and engine["blocking"] is True
    assert engine["detail"] == f"{served}: serves {DEFAULT_MODEL}, not 'not-served'"


def test_doctor_imports_no_extra_library() -> None:
    """A base install (no extras) runs doctor: it loads none of the extras' libraries."""
    probe = (
        "import json, sys\n"
        "from pagereader.cli.main import app\n"
        "try:\n    app(['doctor', '--json'], standalone_mode=False)\n"
        "except SystemExit:\n    pass\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGEREADER_")}
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=300
    )
    modules = json.loads(done.stdout.strip().splitlines()[-1])
    loaded = [m for m in modules if m.split(".")[0] in EXTRA_LIBRARIES]
    assert loaded == []
    assert "pagereader.evaluate.fonts" in modules
    assert "pagereader.evaluate.synth" not in modules
