"""Optional extras: the core (parse, serve) imports none of the eval or router libraries, and a
command whose extra is missing names the extra to install in one line."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pagereader.cli import extras
from pagereader.cli.main import app
from pagereader.errors import install_line

REPO = Path(__file__).resolve().parents[3]

OPTIONAL = ("matplotlib", "reportlab", "apted", "fuzzysearch", "yaml", "docling_core")


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def test_the_core_imports_no_optional_library() -> None:
    done = _python(
        "import sys\n"
        "import pagereader, pagereader.pipeline, pagereader.cli.main\n"
        f"print(sorted(m for m in {OPTIONAL!r} if m in sys.modules))\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_missing_extra_is_named_in_one_line() -> None:
    done = _python(
        "import sys\n"
        "sys.modules['apted'] = None\n"  # as if the eval extra were not installed
        "sys.argv = ['pagereader', 'eval', '.']\n"
        "from pagereader.cli.main import main\n"
        "main()\n"
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert install_line("eval") in done.stderr
    router = _python(
        "import sys\n"
        "sys.modules['yaml'] = None\n"
        "sys.argv = ['pagereader', 'router-config', '--config', 'x.toml']\n"
        "from pagereader.cli.main import main\n"
        "main()\n"
    )
    assert router.returncode == 1 and install_line("router") in router.stderr
    docling = _python(
        "import sys\n"
        "sys.modules['docling_core'] = None\n"
        "sys.argv = ['pagereader', 'export-docling', 'document.json', '-o', 'out.json']\n"
        "from pagereader.cli.main import main\n"
        "main()\n"
    )
    lines = docling.stderr.strip().splitlines()
    assert docling.returncode == 1 and len(lines) == 1, docling.stderr
    assert install_line("docling") in lines[0]
    mcp = _python(
        "import sys\n"
        "sys.modules['mcp'] = None\n"
        "sys.argv = ['pagereader', 'mcp', '--root', '.']\n"
        "from pagereader.cli.main import main\n"
        "main()\n"
    )
    assert mcp.returncode == 1 and "Traceback" not in mcp.stderr
    assert mcp.stderr.strip() == mcp.stderr.strip().splitlines()[0]
    assert install_line("mcp") in mcp.stderr


def _names(requirements: list[str]) -> list[str]:
    return [re.split(r"[<>=;\[ ]", r, maxsplit=1)[0] for r in requirements]


@pytest.mark.parametrize("extra", ["eval", "router", "service", "batch", "docling", "mcp"])
def test_requirements_are_pyprojects(extra: str) -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    listed = _names(pyproject["project"]["optional-dependencies"][extra])
    assert extras.extra_requirements(extra) == listed


def test_a_missing_library_stops_the_command_before_it_starts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real_version = metadata.version

    def version(name: str) -> str:
        if name == "matplotlib":
            raise metadata.PackageNotFoundError(name)
        return real_version(name)

    monkeypatch.setattr(metadata, "version", version)
    result = CliRunner().invoke(app, ["bench", str(tmp_path), "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines == [
        "error: this command needs the 'eval' extra (matplotlib missing): " + install_line("eval")
    ]
    assert not (tmp_path / "out").exists()
