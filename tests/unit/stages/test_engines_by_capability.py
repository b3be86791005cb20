"""The decision layer names no engine: stages import the engine protocols and the registry,
never a concrete engine module (they ask the Runtime's capabilities instead)."""

from __future__ import annotations

import ast
from pathlib import Path

import pagereader.stages

ALLOWED = {"pagereader.engines.base", "pagereader.engines.registry"}


def _engine_imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            if node.module == "pagereader.engines":
                found.update(names[1:])
            elif node.module.startswith("pagereader.engines."):
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("pagereader.engines"))
    return found


def test_stages_import_no_concrete_engine() -> None:
    folder = Path(pagereader.stages.__file__).parent
    modules = sorted(folder.glob("*.py"))
    assert len(modules) > 10
    imported = {path.name: _engine_imports(path) - ALLOWED for path in modules}
    assert {name: found for name, found in imported.items() if found} == {}
