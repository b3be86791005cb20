"""The console entry point imports only the subcommand it runs, and a finished command still
runs its exit handlers, flushes its output and keeps its exit status."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from pagereader.cli.main import COMMANDS, app

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "deck.pdf"
COMMAND_MODULES = {
    f"pagereader.cli.{name}"
    for name in (
        "parse",
        "batch",
        "diff",
        "serve",
        "serve_engine",
        "router_config",
        "plan",
        "eval",
        "bench",
        "export_evalset",
        "export_docling",
        "mcp",
        "schema",
        "doctor",
    )
}
"""The modules of the subcommands, one each (``eval`` holds ``make-evalset`` too)."""


def _main(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """``pagereader ARGV`` through main() in a fresh process; an exit handler registered first
    prints the modules then loaded as the last line of stdout."""
    code = (
        "import atexit, json, sys\n"
        "atexit.register(lambda: print(json.dumps(sorted(sys.modules))))\n"
        f"sys.argv = ['pagereader', *{argv!r}]\n"
        "from pagereader.cli.main import main\n"
        "main()\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def _command_modules(loaded: list[str]) -> set[str]:
    return COMMAND_MODULES & set(loaded)


def test_a_subcommand_imports_no_other_command() -> None:
    done = _main(["schema"])
    assert done.returncode == 0, done.stderr
    *printed, last = done.stdout.strip().splitlines()
    assert json.loads("\n".join(printed))["title"]  # the schema, flushed before the exit
    assert _command_modules(json.loads(last)) == {"pagereader.cli.schema"}


def test_the_group_help_lists_every_command() -> None:
    done = _main(["--help"])
    assert done.returncode == 0, done.stderr
    for name in COMMANDS:
        assert f" {name} " in done.stdout
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert _command_modules(loaded) == COMMAND_MODULES


def test_an_unknown_command_is_told_by_the_full_group() -> None:
    done = _main(["pars", str(EXAMPLE)])
    assert done.returncode == 2
    assert "No such command 'pars'" in done.stderr


def test_a_failed_parse_keeps_its_status_and_message(tmp_path: Path) -> None:
    done = _main(["parse", str(tmp_path / "missing.pdf"), "-o", str(tmp_path / "out")])
    assert done.returncode == 1
    assert "missing.pdf" in done.stderr


def test_a_parse_through_main_writes_every_output(tmp_path: Path) -> None:
    done = _main(["parse", str(EXAMPLE), "-o", str(tmp_path)])
    assert done.returncode == 0, done.stderr
    folder = tmp_path / EXAMPLE.stem
    result = json.loads((folder / "document.json").read_text("utf-8"))
    assert result["status"] == "ok" and len(result["pages"]) == 4
    assert (folder / "document.md").read_text("utf-8").strip()
    assert sorted(p.name for p in (folder / "pages").glob("*.png")) == [
        f"{i:03d}.png" for i in range(1, 5)
    ]


def test_app_mounts_every_command() -> None:
    listed = CliRunner().invoke(app, ["--help"], terminal_width=200)
    assert listed.exit_code == 0
    for name in COMMANDS:
        assert f" {name} " in listed.output
