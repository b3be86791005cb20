"""Output folder names: one distinct, safe path component per input of a run, so that two
inputs never share a folder (``a/report.pdf`` and ``b/report.pdf``) and no name leaves the
output folder (a file named ``...pdf``)."""

from __future__ import annotations

import os
import re
from pathlib import Path


def _clean_name(text: str) -> str:
    """A safe folder name: letters, digits, ``._-``; no leading dot; at most 120 bytes."""
    name = re.sub(r"[^\w.-]+", "_", text).strip("._-")
    name = name.encode("utf-8")[:120].decode("utf-8", "ignore").rstrip("._-")
    return name or "document"


def _relative_stem(path: Path, base: Path) -> str:
    try:
        parts = path.with_suffix("").relative_to(base).parts
    except ValueError:
        parts = path.with_suffix("").parts
    return "-".join(parts)


def output_names(paths: list[Path]) -> dict[Path, str]:
    """A distinct folder name per input, always a single safe path component.

    A file's name is its stem; inputs sharing a stem are named by their path relative to the
    inputs' common folder (``a/report.pdf`` -> ``a-report``), then by their suffix
    (``deck-pdf``); any name still taken gets ``-2``, ``-3``... (compared without case, for
    case-insensitive file systems).
    """
    absolute = [Path(os.path.abspath(p)) for p in paths]
    base = Path(os.path.commonpath([p.parent for p in absolute])) if absolute else Path()
    stems: dict[str, int] = {}
    for path in paths:
        key = _clean_name(path.stem).casefold()
        stems[key] = stems.get(key, 0) + 1
    names: dict[Path, str] = {}
    taken: set[str] = set()
    for path, full in zip(paths, absolute, strict=True):
        name = _clean_name(path.stem)
        if stems[name.casefold()] > 1:
            name = _clean_name(_relative_stem(full, base))
        if name.casefold() in taken and path.suffix:
            name = _clean_name(f"{name}-{path.suffix.lstrip('.')}")
        unique, n = name, 1
        while unique.casefold() in taken:
            n += 1
            unique = f"{name}-{n}"
        taken.add(unique.casefold())
        names[path] = unique
    return names
