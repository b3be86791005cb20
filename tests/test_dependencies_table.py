"""The Dependencies page's table (docs/dependencies.md) and pyproject.toml name the same
packages, each under the same extra (or the base install): a dependency added or moved in one
and not the other fails."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
EXTRA = re.compile(r"\(extra `([a-z]+)`\)")
DEVELOPMENT_EXTRAS = {"test"}


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared(pyproject: dict[str, object]) -> set[tuple[str, str]]:
    """(package, extra or "base") for every dependency users install."""
    project = pyproject["project"]
    assert isinstance(project, dict)
    pairs = set()
    for requirement in project["dependencies"]:
        match = NAME.match(requirement)
        assert match, requirement
        pairs.add((_canonical(match.group(1)), "base"))
    for extra, requirements in project["optional-dependencies"].items():
        if extra in DEVELOPMENT_EXTRAS:
            continue
        for requirement in requirements:
            match = NAME.match(requirement)
            assert match, requirement
            pairs.add((_canonical(match.group(1)), extra))
    return pairs


PAGE = REPO / "docs" / "dependencies.md"


def tabled(page: str) -> set[tuple[str, str]]:
    """(package, extra or "base") for every Python row of the Dependencies table."""
    section = page.split("# Dependencies\n", 1)[1].split("\n## ", 1)[0]
    pairs = set()
    for line in section.splitlines():
        if not line.startswith("| ") or line.startswith(("| library", "| ---", "| Debian")):
            continue
        first = line.split("|")[1]
        extra = EXTRA.search(first)
        names = EXTRA.sub("", first)
        for name in names.split(","):
            pairs.add((_canonical(name.strip()), extra.group(1) if extra else "base"))
    return pairs


def test_the_docs_table_lists_what_pyproject_declares() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    page = PAGE.read_text(encoding="utf-8")
    in_pyproject = declared(pyproject)
    in_docs = tabled(page)
    assert in_pyproject - in_docs == set(), "declared in pyproject.toml, not on the page"
    assert in_docs - in_pyproject == set(), "in the page's table, not in pyproject.toml"


def test_the_comparison_sees_a_missing_row() -> None:
    page = PAGE.read_text(encoding="utf-8")
    without_httpx = "\n".join(line for line in page.splitlines() if not line.startswith("| httpx"))
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert declared(pyproject) - tabled(without_httpx) == {("httpx", "base")}
    moved = page.replace("| pyyaml (extra `router`)", "| pyyaml (extra `service`)")
    assert ("pyyaml", "service") in tabled(moved) - declared(pyproject)
