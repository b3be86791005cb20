"""A folder's files as bytes, for tests that check an output folder was left exactly as it
was (or holds exactly what another run wrote)."""

from __future__ import annotations

from pathlib import Path


def tree_bytes(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by its path relative to it, with its bytes."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }
