"""Every command's help, and the bare command, print usage instead of a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from pagereader.cli.main import app

SRC = Path(__file__).resolve().parents[2] / "src"


def _command_paths() -> list[list[str]]:
    """Every command and subcommand of the app, as argument lists."""
    paths: list[list[str]] = []

    def walk(command: object, prefix: list[str]) -> None:
        paths.append(prefix)
        commands: dict[str, object] = getattr(command, "commands", {})
        for name, sub in commands.items():
            walk(sub, [*prefix, name])

    walk(typer.main.get_command(app), [])
    return paths


@pytest.mark.parametrize("path", _command_paths(), ids=lambda p: " ".join(p) or "pagereader")
def test_help_of_every_command(path: list[str]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"])
    assert result.exception is None, result.exception
    assert result.exit_code == 0
    assert "Usage:" in result.output


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "100"}
    return subprocess.run(
        [sys.executable, "-m", "pagereader", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.mark.parametrize("args", [(), ("--help",), ("serve", "--help")], ids=str)
def test_first_commands_a_newcomer_types(args: tuple[str, ...]) -> None:
    done = _run(*args)
    output = done.stdout + done.stderr
    assert "Traceback" not in output
    assert "Usage:" in output
    assert done.returncode in (0, 2)  # click exits 2 when a group is run without a command
