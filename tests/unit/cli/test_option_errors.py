"""A bad option is one line naming it, and exit 1, in parse and in batch alike (they read
options the same way: environment, config, then flags)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pagereader.cli.main import app

DECK = Path(__file__).parents[3] / "examples" / "deck.pdf"


@pytest.mark.parametrize("command", ["parse", "batch"])
@pytest.mark.parametrize(
    ("flag", "value", "named"), [("--lang", "xx", "lang"), ("--dpi", "0", "render.dpi")]
)
def test_a_bad_flag_is_one_line(
    tmp_path: Path, command: str, flag: str, value: str, named: str
) -> None:
    result = CliRunner().invoke(app, [command, str(DECK), "-o", str(tmp_path / "out"), flag, value])
    assert result.exit_code == 1, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error")]
    assert len(errors) == 1, result.output
    assert f"invalid options: {named}:" in errors[0] and "command line" in errors[0]
    assert "Traceback" not in result.output and "pydantic" not in result.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
