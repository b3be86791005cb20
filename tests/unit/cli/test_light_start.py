"""`pagereader --help` and `import pagereader` pay for no pipeline: no PDF library, model
runtime, array library, HTTP client or slide reader is imported (each took 0.1-0.4 s of the
1.0 s that `--help` took), and the lazily imported names still resolve."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = (
    "pagereader.pipeline",
    "pagereader.sources",
    "pagereader.engines",
    "numpy",
    "pypdfium2",
    "onnxruntime",
    "rapidocr",
    "cv2",
    "httpx",
    "pptx",
    "pydantic",
)


def _loaded_after(code: str) -> list[str]:
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    modules: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return modules


def _heavy(modules: list[str], allowed: tuple[str, ...] = ()) -> list[str]:
    heavy = [h for h in HEAVY if h not in allowed]
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in heavy)]


@pytest.mark.parametrize(
    "command",
    [[], ["parse"], ["diff"], ["plan"], ["plan", "calibrate"], ["batch"], ["schema"], ["doctor"]],
)
def test_help_imports_no_pipeline(command: list[str]) -> None:
    code = (
        "from pagereader.cli.main import app\n"
        f"try:\n    app({[*command, '--help']!r}, standalone_mode=False)\n"
        "except SystemExit:\n    pass"
    )
    # typer itself loads pydantic to build a subcommand's parameters
    allowed = ("pydantic",) if command else ()
    assert _heavy(_loaded_after(code), allowed) == []


def test_import_pagereader_is_light_and_its_names_resolve() -> None:
    assert _heavy(_loaded_after("import pagereader")) == []
    import pagereader
    from pagereader.pipeline import parse

    assert pagereader.parse is parse
    assert set(pagereader.__all__) <= set(dir(pagereader))
    for name in pagereader.__all__:
        assert getattr(pagereader, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = pagereader.nothing


def test_the_planner_package_names_resolve() -> None:
    import pagereader.planner as planner
    from pagereader.planner.placement import fit

    assert planner.fit is fit
    for name in planner.__all__:
        assert getattr(planner, name) is not None


def test_a_pdf_is_read_without_the_slide_reader() -> None:
    """python-pptx (0.1 s of imports) is loaded for a deck only, not for every parse."""
    pdf = Path(__file__).parents[3] / "examples" / "deck.pdf"
    code = (
        "from pathlib import Path\n"
        "from pagereader.sources import open_source\n"
        f"source = open_source(Path({str(pdf)!r}), password=None, max_image_pixels=10**8)\n"
        "assert source.page_count == 4\n"
        "source.close()"
    )
    loaded = _loaded_after(code)
    assert "pagereader.sources.pdf" in loaded
    assert [
        m for m in loaded if m == "pptx" or m.startswith(("pptx.", "pagereader.sources.pptx"))
    ] == []
