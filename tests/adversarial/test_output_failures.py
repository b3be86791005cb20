"""An output folder that cannot be written (read-only, full disk) gives one clear line naming
the folder, leaves no truncated file, and the other inputs are still written."""

from __future__ import annotations

import json
import os
import resource
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from subprocess import CompletedProcess

from PIL import Image

from adversarial.documents import text_pdf

Cli = Callable[..., CompletedProcess[str]]


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """``folder`` refuses new files, also to root (the immutable attribute)."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(folder)], check=True)
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
    else:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)


def _no_traceback(done: CompletedProcess[str]) -> list[str]:
    assert "Traceback" not in done.stderr, done.stderr
    return [line for line in done.stderr.splitlines() if line.startswith("error")]


def test_read_only_output_folder(tmp_path: Path, cli: Cli) -> None:
    pdf = text_pdf(tmp_path / "a.pdf")
    out = tmp_path / "O"
    with read_only(out):
        done = cli("parse", pdf, "-o", out)
    errors = _no_traceback(done)
    assert done.returncode == 1
    assert len(errors) == 1 and str(out) in errors[0] and "--out" in errors[0], done.stderr


def test_one_read_only_document_folder_spares_the_others(tmp_path: Path, cli: Cli) -> None:
    first = text_pdf(tmp_path / "in" / "first.pdf", title="First")
    second = text_pdf(tmp_path / "in" / "second.pdf", title="Second")
    out = tmp_path / "O"
    with read_only(out / "first"):
        done = cli("parse", first, second, "-o", out, "--no-resume")
    errors = _no_traceback(done)
    assert done.returncode == 1
    assert len(errors) == 1 and str(out / "first") in errors[0], done.stderr
    markdown = (out / "second" / "document.md").read_text(encoding="utf-8")
    assert "Second page 1" in markdown


def _limit_file_size() -> None:
    # a file may not grow past 24 KiB: the JSON of this deck does not fit (its overlays, 19 KiB, do)
    resource.setrlimit(resource.RLIMIT_FSIZE, (24 * 1024, 24 * 1024))


def test_full_disk_leaves_no_truncated_file(tmp_path: Path, cli: Cli) -> None:
    deck = text_pdf(tmp_path / "deck.pdf", pages=6)
    out = tmp_path / "O"
    done = cli("parse", deck, "-o", out, preexec_fn=_limit_file_size)
    errors = _no_traceback(done)
    assert done.returncode == 1
    assert len(errors) == 1 and str(out / "deck") in errors[0], done.stderr
    for path in out.rglob("*"):
        assert not path.name.endswith(".part"), path
        if path.suffix == ".png":
            with Image.open(path) as image:
                image.load()
        elif path.suffix == ".json":
            json.loads(path.read_text(encoding="utf-8"))
