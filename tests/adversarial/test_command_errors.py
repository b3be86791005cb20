"""Every command's failure a user can fix is one line naming the file once, with a hint only
where it applies; library warnings print as the CLI's own ``warning <file> page N:`` lines.

The tests run as root, which ignores permission bits: an output path below a regular file (no
folder can be made there) and one below a missing folder are unwritable to root as well.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

import pytest
from reportlab.pdfgen.canvas import Canvas

from adversarial.documents import astral_pdf, text_pdf

Cli = Callable[..., CompletedProcess[str]]
CONFIG_HINT = "examples/configs/"


def _error_lines(done: CompletedProcess[str]) -> list[str]:
    assert "Traceback" not in done.stderr, done.stderr
    return [line for line in done.stderr.splitlines() if line.startswith("error")]


def _dataset(root: Path) -> Path:
    """A one-page evaluation dataset: a PDF with its reference text beside it."""
    text_pdf(root / "a.pdf")
    (root / "a.txt").write_text("Report page 1\n", encoding="utf-8")
    return root


def _config(root: Path) -> Path:
    """A config with one served engine, which router-config can route to."""
    path = root / "c.toml"
    path.write_text(
        '[engines.vlm]\nkind = "openai"\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\n',
        encoding="utf-8",
    )
    return path


def _command(name: str, tmp: Path, out: Path) -> tuple[list[str | Path], Path]:
    """The command line writing to ``out``, and the path its error must name."""
    if name == "eval":
        return ["eval", _dataset(tmp / "data"), "--engines", "textlayer", "-o", out], out
    if name == "bench":
        return ["bench", text_pdf(tmp / "a.pdf"), "-o", out], out
    if name == "make-evalset":
        return ["make-evalset", out], out
    if name == "export-evalset":
        return ["export-evalset", out, "--data-dir", tmp], out
    if name == "batch":
        return ["batch", text_pdf(tmp / "a.pdf"), "-o", out, "--cpus", "1"], out / "_batch"
    if name == "export-docling":
        source = tmp / "document.json"
        source.write_text(
            json.dumps({"schema_version": "2.1", "source": "a.pdf", "status": "ok"}),
            encoding="utf-8",
        )
        return ["export-docling", source, "-o", out / "d.json"], out / "d.json"
    if name == "plan":
        return ["plan", "--emit-config", out / "x.toml"], out / "x.toml"
    assert name == "router-config"
    return ["router-config", "--config", _config(tmp), "-o", out / "r.yaml"], out / "r.yaml"


CASES = [
    *((name, "below a file") for name in ("eval", "bench", "make-evalset", "export-evalset")),
    *((name, "below a file") for name in ("batch", "plan", "router-config")),
    ("plan", "in a missing folder"),  # these two write a file and make no folder for it
    ("router-config", "in a missing folder"),
    ("export-docling", "below a file"),
]


@pytest.mark.parametrize(("name", "where"), CASES)
def test_unwritable_output_is_one_line(tmp_path: Path, cli: Cli, name: str, where: str) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder\n", encoding="utf-8")
    out = blocker / "sub" if where == "below a file" else tmp_path / "missing"
    args, target = _command(name, tmp_path, out)
    done = cli(*args, timeout=240)
    errors = _error_lines(done)
    assert done.returncode == 1, done.stderr
    assert len(errors) == 1, done.stderr
    (line,) = errors
    reason = "Not a directory" if where == "below a file" else "No such file or directory"
    assert line.startswith("error: ") and f"{reason} (make the folder writable" in line, line
    assert line.count(str(target)) == 1 and line.count(str(out)) == 1, line
    assert "free disk space" in line and CONFIG_HINT not in line, line


def _bad_tokens(path: Path) -> Path:
    path.write_text("alice:admin:short\n", encoding="utf-8")
    return path


def test_token_file_error_names_the_file_once(tmp_path: Path, cli: Cli) -> None:
    tokens = _bad_tokens(tmp_path / "badtokens.txt")
    done = cli("serve-engine", "--token-file", tokens, "--port", "9")
    (line,) = _error_lines(done)
    assert done.returncode == 2
    assert line.count("badtokens.txt") == 1, line
    assert line.startswith(f"error: {tokens}: entry 1: the token of 'alice' is shorter"), line
    assert CONFIG_HINT not in line


def test_failed_batch_document_is_named_once(tmp_path: Path, cli: Cli) -> None:
    folder = tmp_path / "batchin"
    folder.mkdir()
    (folder / "corrupt.pdf").write_bytes(b"%PDF-1.4 not really\n")
    done = cli("batch", "batchin", "-o", "bo", "--cpus", "1", cwd=tmp_path, timeout=240)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    failed = [line for line in done.stderr.splitlines() if "corrupt.pdf" in line]
    assert len(failed) == 1, done.stderr
    assert failed[0].startswith("failed batchin/corrupt.pdf: not a readable PDF"), failed
    assert failed[0].count("corrupt.pdf") == 1, failed


def test_config_hint_only_where_it_applies(tmp_path: Path, cli: Cli) -> None:
    unrelated = cli("plan", "--gpus", "2xA100-40,4xA100-80", "--emit-config", tmp_path / "x.toml")
    (line,) = _error_lines(unrelated)
    assert unrelated.returncode == 2
    assert line == "error: --emit-config needs exactly one GPU set in --gpus"
    config = tmp_path / "nope.toml"
    missing = cli("parse", text_pdf(tmp_path / "a.pdf"), "--config", config, "-o", tmp_path / "O")
    (line,) = _error_lines(missing)
    assert missing.returncode == 1
    assert line == (
        f"error: {config}: config file not found (see examples/configs/ and docs/vlm.md)"
    )


def _encrypted_pdf(path: Path) -> Path:
    canvas = Canvas(str(path), encrypt="secret", invariant=True)
    canvas.drawString(72, 700, "Locked")
    canvas.showPage()
    canvas.save()
    return path


def test_encrypted_pdf_says_whether_a_password_was_given(tmp_path: Path, cli: Cli) -> None:
    pdf = _encrypted_pdf(tmp_path / "locked.pdf")
    lines = {}
    for flags in ([], ["--password", "nope"]):
        done = cli("parse", pdf, "-o", tmp_path / "O", "--no-resume", *flags)
        assert done.returncode == 1
        (lines[bool(flags)],) = _error_lines(done)
    hint = "(pass the password with --password)"
    assert lines[False] == f"error {pdf}: the PDF is encrypted: no password given {hint}"
    assert lines[True] == f"error {pdf}: the PDF is encrypted: wrong password {hint}"
    record = json.loads((tmp_path / "O" / "locked" / "document.json").read_text("utf-8"))
    assert record["errors"][0]["message"] == "the PDF is encrypted: wrong password"


def test_library_warnings_print_as_the_cli_lines(tmp_path: Path, cli: Cli) -> None:
    pdf = astral_pdf(tmp_path / "astral.pdf", lone_surrogate=True)
    done = cli("parse", pdf, "-o", tmp_path / "O")
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr and "pagereader.pipeline" not in done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning")]
    assert len(warnings) == 1, done.stderr
    assert warnings[0].startswith(f"warning {pdf} page 1: lone surrogate"), warnings
