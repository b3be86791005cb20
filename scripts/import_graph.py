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
        below = max((depth[t] for t in sorted(condensed[node])), key=len, default=())
        depth[node] = (node, *below)
    return list(max(depth.values(), key=len, default=()))


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


def architecture(imports: Mapping[str, set[str]]) -> str:
    """A Mermaid diagram: one box per layer (top first), its members inside, and an arrow for
    each pair of members one of which imports the other."""
    stack = layers()
    members = [name for layer in stack for name in layer]
    edges: set[tuple[str, str]] = set()
    for module, imported in imports.items():
        source = _owner(module, members)
        for target_module in imported:
            target = _owner(target_module, members)
            if source and target and source != target:
                edges.add((source, target))

    def node(name: str) -> str:
        return name.removeprefix(ROOT + ".").replace(".", "_")

    lines = ["flowchart TB"]
    for depth, layer in enumerate(stack):
        label = " / ".join(name.removeprefix(ROOT + ".") for name in layer)
        lines.append(f'    subgraph L{depth}["{label}"]')
        lines.extend(f'        {node(n)}["{n.removeprefix(ROOT + ".")}"]' for n in layer)
        lines.append("    end")
    for depth in range(len(stack) - 1):
        lines.append(f"    L{depth} --> L{depth + 1}")
    lines.append(f"    %% {len(edges)} imports between layer members")
    return "\n".join(lines) + "\n"


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
        sys.stdout.write(architecture(imports))
        return 0
    print(summary(imports))
    circle = find_circle(imports)
    if circle:
        print("import circle: " + " -> ".join(circle), file=sys.stderr)
        return 1 if args.check else 0
    print("import circles: none")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
