"""A disk that fills up during the outputs: what ``parse`` reports and what document.json on
disk records always agree, a page whose overlay was not written says so, and a document whose
record does not fit leaves its folder as it was (absent, or the earlier complete run's), with
one error line naming it.

The full disk is real: the child's RLIMIT_FSIZE makes write() fail with EFBIG past the limit
(SIGXFSZ ignored), without privileges and the same on every run.
"""

from __future__ import annotations

import json
import resource
import signal
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

from adversarial.documents import text_pdf
from folders import tree_bytes

Cli = Callable[..., CompletedProcess[str]]


def _limit(size: int) -> Callable[[], None]:
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return apply


def _summary_status(done: CompletedProcess[str], file: str) -> str:
    """The status of ``file``'s line in the summary (piped: one line per document, its path
    then each figure after its name)."""
    lines = done.stderr.splitlines()
    rows = [line.split() for line in lines if line.startswith(f"{file} ") and " status " in line]
    assert len(rows) == 1, done.stderr
    return rows[0][rows[0].index("status") + 1]


def _errors(done: CompletedProcess[str]) -> list[str]:
    assert "Traceback" not in done.stderr, done.stderr
    return [line for line in done.stderr.splitlines() if line.startswith("error")]


def test_unwritten_overlay_is_partial_in_the_summary_and_the_record(
    tmp_path: Path, cli: Cli
) -> None:
    text_pdf(tmp_path / "a.pdf")
    limit = 12 * 1024  # the page's overlay is about 19 KiB, its JSON about 6 KiB
    done = cli("parse", "a.pdf", "-o", "O", "--no-resume", cwd=tmp_path, preexec_fn=_limit(limit))
    assert done.returncode == 1, done.stderr
    overlay = Path("O") / "a" / "pages" / "001.png"
    message = f"cannot write the overlay {overlay}: File too large"
    hint = "make the folder writable or free disk space, or choose another with --out"
    assert _errors(done) == [f"error a.pdf page 1: {message} ({hint})"]
    folder = tmp_path / "O" / "a"
    record = json.loads((folder / "document.json").read_text(encoding="utf-8"))
    assert _summary_status(done, "a.pdf") == record["status"] == "partial"
    (page,) = record["pages"]
    assert page["errors"] == [
        {"file": "a.pdf", "page": 1, "stage": "write", "message": message, "hint": hint}
    ]
    assert record["errors"] == page["errors"]
    assert not (folder / "pages" / "001.png").exists()
    assert list((folder / "pages").iterdir()) == []  # nor a temporary file left behind
    review = (folder / "review.md").read_text(encoding="utf-8")
    assert "001.png)" not in review and message in review


def _hidden(out: Path) -> list[str]:
    """What OUT holds besides documents and the page cache: staging siblings left behind."""
    return sorted(p.name for p in out.iterdir() if p.name.startswith(".") and "cache" not in p.name)


HINT = "make the folder writable or free disk space, or choose another with --out"


def test_a_record_that_does_not_fit_leaves_no_folder(tmp_path: Path, cli: Cli) -> None:
    text_pdf(tmp_path / "a.pdf")
    limit = 2048  # document.md, timings.json and review.md fit; document.json does not
    done = cli("parse", "a.pdf", "-o", "O", "--no-resume", cwd=tmp_path, preexec_fn=_limit(limit))
    assert done.returncode == 1, done.stderr
    out = tmp_path / "O"
    assert not (out / "a").exists()  # not document.md, chunks.jsonl, review.md without a record
    assert _hidden(out) == []
    message = "cannot write document.json: File too large; the folder is not made"
    assert _errors(done) == [f"error {Path('O') / 'a'}: {message} ({HINT})"]
    assert _summary_status(done, "a.pdf") == "failed"


def test_an_unwritten_record_keeps_the_previous_folder_whole(tmp_path: Path, cli: Cli) -> None:
    text_pdf(tmp_path / "a.pdf")
    first = cli("parse", "a.pdf", "-o", "O", "--no-resume", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    folder = tmp_path / "O" / "a"
    before = tree_bytes(folder)
    assert json.loads(before["document.json"])["status"] == "ok"
    assert {"document.md", "chunks.jsonl", "review.md", "timings.json"} <= set(before)
    limit = 2048
    assert len(before["document.json"]) > limit
    done = cli("parse", "a.pdf", "-o", "O", "--no-resume", cwd=tmp_path, preexec_fn=_limit(limit))
    assert done.returncode == 1, done.stderr
    assert tree_bytes(folder) == before  # every file the first run's, byte for byte
    kept = "the folder is kept as the last complete run wrote it"
    message = f"cannot write document.json: File too large; {kept}"
    assert _errors(done) == [f"error {Path('O') / 'a'}: {message} ({HINT})"]
    assert _summary_status(done, "a.pdf") == "failed"
    assert _hidden(tmp_path / "O") == []
