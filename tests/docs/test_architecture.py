"""The architecture page shows the code as it is: its layers diagram is the one made from the
import-linter contract, every package of src/pagereader is in its table, and the package holds
no import circle and no module outside the layers (what `make lint` checks too)."""

from __future__ import annotations

import importlib.util
import re
from itertools import pairwise
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "architecture.md"


def import_graph() -> ModuleType:
    """scripts/import_graph.py, loaded as a module."""
    spec = importlib.util.spec_from_file_location(
        "import_graph", REPO / "scripts" / "import_graph.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_page_shows_the_layers_contract_as_made_from_it() -> None:
    page = PAGE.read_text(encoding="utf-8")
    block = re.search(
        r"<!-- layers:begin -->\n```mermaid\n(.*?)```\n<!-- layers:end -->", page, re.S
    )
    assert block is not None
    assert block.group(1) == import_graph().architecture()
    assert "subgraph" in block.group(1) and '["document"]' in block.group(1)


def test_the_page_names_every_package() -> None:
    page = PAGE.read_text(encoding="utf-8")
    table = {
        name
        for row in re.findall(r"^\| (`.*?) \|", page, re.M)
        for name in re.findall(r"`(\w+)`", row)
    }
    src = REPO / "src" / "pagereader"
    packages = {p.name for p in src.iterdir() if (p / "__init__.py").exists()}
    assert packages <= table, sorted(packages - table)


def test_no_circle_and_every_module_in_a_layer() -> None:
    graph = import_graph()
    imports = graph.module_imports()
    assert len(imports) > 200
    assert graph.find_circle(imports) is None
    assert graph.unplaced(imports) == []
    chain = graph.longest_chain(imports)
    assert chain[0] == "pagereader.__main__" and all(b in imports[a] for a, b in pairwise(chain))
