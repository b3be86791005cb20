"""Optional extras: the core (parse, serve) imports none of the eval or router libraries, and a
command whose extra is missing names the extra to install in one line."""

from __future__ import annotations

import subprocess
import sys

OPTIONAL = ("matplotlib", "reportlab", "apted", "fuzzysearch", "yaml")


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def test_the_core_imports_no_optional_library() -> None:
    done = _python(
        "import sys\n"
        "import pagereader, pagereader.pipeline, pagereader.cli.app\n"
        f"print(sorted(m for m in {OPTIONAL!r} if m in sys.modules))\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_missing_extra_is_named_in_one_line() -> None:
    done = _python(
        "import sys\n"
        "sys.modules['apted'] = None\n"  # as if the eval extra were not installed
        "sys.argv = ['pagereader', 'eval', '.']\n"
        "from pagereader.cli.app import main\n"
        "main()\n"
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "pip install 'pagereader[eval]'" in done.stderr
    router = _python(
        "import sys\n"
        "sys.modules['yaml'] = None\n"
        "sys.argv = ['pagereader', 'router-config', '--config', 'x.toml']\n"
        "from pagereader.cli.app import main\n"
        "main()\n"
    )
    assert router.returncode == 1 and "pip install 'pagereader[router]'" in router.stderr
