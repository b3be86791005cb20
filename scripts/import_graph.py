"""The import graph of src/pagereader: its size, its longest chain, and no circle in it.

``make lint`` runs it with ``--check``: it fails on any import circle between pagereader's
modules (import-linter's layers contract forbids upward imports between layers, not a circle
inside one). ``--architecture`` prints the package diagram that docs/architecture.md holds,
made from the layers contract in pyproject.toml and the imports the code really has; a test
compares the two so the page cannot drift from the code.

    python scripts/import_graph.py            # counts, longest chain
    python scripts/import_graph.py --check    # the same, exit 1 on a circle
    python scripts/import_graph.py --architecture
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections.abc import Iterable, Mapping
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import grimp

ROOT = "pagereader"
REPO = Path(__file__).resolve().parent.parent


def module_imports() -> dict[str, set[str]]:
    """Every pagereader module and the pagereader modules it imports (lazy imports included)."""
    graph = grimp.build_graph(ROOT)
    modules = {m for m in graph.modules if m == ROOT or m.startswith(ROOT + ".")}
    return {
        m: {i for i in graph.find_modules_directly_imported_by(m) if i in modules and i != m}
        for m in sorted(modules)
    }


def packages(imports: Mapping[str, set[str]]) -> set[str]:
    """The modules that are packages (a folder with an __init__): those with a submodule."""
    return {m for m in imports for other in imports if other.startswith(m + ".")}


def find_circle(imports: Mapping[str, set[str]]) -> list[str] | None:
    """One import circle, as the modules around it, or None."""
    try:
        tuple(TopologicalSorter(imports).static_order())
    except CycleError as error:
        return list(error.args[1])
    return None


def strongly_connected(imports: Mapping[str, set[str]]) -> dict[str, str]:
    """Each module's circle, named by one of its members (itself when it is in none)."""
    order: list[str] = []
    seen: set[str] = set()
    for start in imports:  # first pass: finishing order, iteratively (deep graphs)
        if start in seen:
            continue
        seen.add(start)
        stack = [(start, iter(sorted(imports[start])))]
        while stack:
            module, pending = stack[-1]
            nxt = next((m for m in pending if m not in seen), None)
            if nxt is None:
                stack.pop()
                order.append(module)
            else:
                seen.add(nxt)
                stack.append((nxt, iter(sorted(imports[nxt]))))
    reverse: dict[str, set[str]] = {m: set() for m in imports}
    for module, imported in imports.items():
        for target in imported:
            reverse[target].add(module)
    component: dict[str, str] = {}
    for root in reversed(order):  # second pass on the reversed graph
        if root in component:
            continue
        component[root] = root
        todo = [root]
        while todo:
            module = todo.pop()
            for source in reverse[module]:
                if source not in component:
                    component[source] = root
                    todo.append(source)
    return component


def longest_chain(imports: Mapping[str, set[str]]) -> list[str]:
    """The longest chain of imports (a imports b imports c ...); the modules of a circle count
    as one step, named by one of them."""
    component = strongly_connected(imports)
    condensed: dict[str, set[str]] = {c: set() for c in component.values()}
    for module, imported in imports.items():
        condensed[component[module]].update(
            component[t] for t in imported if component[t] != component[module]
        )
    depth: dict[str, tuple[str, ...]] = {}
    for node in TopologicalSorter(condensed).static_order():  # dependencies first
        below: tuple[str, ...] = ()
        for target in sorted(condensed[node]):
            if len(depth[target]) > len(below):
                below = depth[target]
        depth[node] = (node, *below)
    longest: tuple[str, ...] = ()
    for chain in depth.values():
        if len(chain) > len(longest):
            longest = chain
    return list(longest)


def layers() -> list[list[str]]:
    """The layers contract of pyproject.toml, top layer first, each a list of its modules."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    contract = next(c for c in contracts if c["type"] == "layers")
    return [
        [part.strip() for part in layer.replace("|", ":").split(":")]
        for layer in contract["layers"]
    ]


def _owner(module: str, names: Iterable[str]) -> str | None:
    """The layer member a module belongs to (itself or its package), if any."""
    for name in names:
        if module == name or module.startswith(name + "."):
            return name
    return None


def architecture() -> str:
    """A Mermaid diagram of the layers contract: one box per layer, top first, its members
    inside; a layer imports only from the layers below it (import-linter enforces it)."""

    def node(name: str) -> str:
        return name.removeprefix(ROOT + ".").replace(".", "_")

    stack = layers()
    lines = ["flowchart TB"]
    for depth, layer in enumerate(stack):
        lines.append(f"    subgraph L{depth}[ ]")
        lines.extend(f'        {node(n)}["{n.removeprefix(ROOT + ".")}"]' for n in layer)
        lines.append("    end")
    lines.extend(f"    L{depth} --> L{depth + 1}" for depth in range(len(stack) - 1))
    return "\n".join(lines) + "\n"


def unplaced(imports: Mapping[str, set[str]]) -> list[str]:
    """pagereader's modules that no layer holds (packages' own __init__ files aside)."""
    members = [name for layer in layers() for name in layer]
    return sorted(
        m
        for m in imports
        if m not in packages(imports) and m != f"{ROOT}.__main__" and not _owner(m, members)
    )


def summary(imports: Mapping[str, set[str]]) -> str:
    """Module and package counts and the longest import chain, as printed lines."""
    chain = longest_chain(imports)
    return "\n".join(
        [
            f"modules: {len(imports)}",
            f"packages: {len(packages(imports))}",
            f"longest import chain: {len(chain)} modules",
            "  " + " -> ".join(m.removeprefix(ROOT + ".") for m in chain),
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 on an import circle")
    parser.add_argument("--architecture", action="store_true", help="print the diagram")
    args = parser.parse_args(argv)
    imports = module_imports()
    if args.architecture:
        sys.stdout.write(architecture())
        return 0
    print(summary(imports))
    outside = unplaced(imports)
    if outside:
        print("modules in no layer: " + ", ".join(outside), file=sys.stderr)
        return 1 if args.check else 0
    circle = find_circle(imports)
    if circle:
        print("import circle: " + " -> ".join(circle), file=sys.stderr)
        return 1 if args.check else 0
    print("import circles: none")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
