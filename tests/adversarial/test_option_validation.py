"""Out-of-range or unknown options give one clear line, never a traceback; a page selection
past the end of the document is cut to it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

import pytest

from adversarial.conftest import cli_env
from adversarial.documents import text_pdf

Cli = Callable[..., CompletedProcess[str]]


def _one_clear_line(done: CompletedProcess[str], *needles: str) -> None:
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "ValidationError" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("error")]
    assert len(errors) == 1, done.stderr
    for needle in needles:
        assert needle in errors[0]


@pytest.mark.parametrize(
    ("flags", "needle"),
    [(["--dpi", "5000"], "render.dpi"), (["--lang", "xx"], "lang"), (["--pages", "0"], "0")],
)
def test_bad_flags(tmp_path: Path, cli: Cli, flags: list[str], needle: str) -> None:
    pdf = text_pdf(tmp_path / "a.pdf")
    _one_clear_line(cli("parse", pdf, "-o", tmp_path / "O", *flags), needle)
    assert not (tmp_path / "O" / "a").exists()


def test_bad_environment_value(tmp_path: Path, cli: Cli) -> None:
    pdf = text_pdf(tmp_path / "a.pdf")
    done = cli("parse", pdf, "-o", tmp_path / "O", env=cli_env(PAGEREADER_DPI="abc"))
    _one_clear_line(done, "PAGEREADER_DPI", "render.dpi")


def test_typo_in_a_config_key(tmp_path: Path, cli: Cli) -> None:
    pdf = text_pdf(tmp_path / "a.pdf")
    config = tmp_path / "c.toml"
    config.write_text('[verify.remedies]\nrepetiton = ["review"]\n', encoding="utf-8")
    done = cli("parse", pdf, "-o", tmp_path / "O", "--config", config)
    _one_clear_line(done, "c.toml", "repetiton")


def test_page_range_past_the_end_is_cut(tmp_path: Path, cli: Cli) -> None:
    pdf = text_pdf(tmp_path / "four.pdf", pages=4)
    done = cli("parse", pdf, "-o", tmp_path / "O", "--pages", "2-100000")
    assert done.returncode == 0, done.stderr
    document = json.loads((tmp_path / "O" / "four" / "document.json").read_text("utf-8"))
    assert [page["index"] for page in document["pages"]] == [2, 3, 4]
    assert document["errors"] == []
    assert document["warnings"] == [
        "99996 selected page(s) past the end ignored; the document has 4 pages"
    ]
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning")]
    assert len(warnings) == 1 and "4 pages" in warnings[0]
