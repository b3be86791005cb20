"""The folders an adapter may read documents from: a path a client names is resolved (symlinks
included) and must land inside one of them, so that ``../``, an absolute path elsewhere or a
symlink out of a root reaches nothing."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from pagereader.errors import ConfigError, InputError


class PathRefusedError(InputError):
    """A document path that is not inside the allowed roots, or not a file there."""

    default_hint = "name a file inside an allowed root, relative to it or by its full path"


class Roots:
    """Allowed folders, each resolved once; paths are confined to them."""

    def __init__(self, folders: Sequence[Path]) -> None:
        resolved: list[Path] = []
        for folder in folders:
            real = Path(os.path.realpath(folder))
            if not real.is_dir():
                raise ConfigError(f"the root {folder} is not a folder", file=folder)
            resolved.append(real)
        self.folders = tuple(resolved)

    def __bool__(self) -> bool:
        return bool(self.folders)

    def _inside(self, real: Path) -> bool:
        return any(real == root or real.is_relative_to(root) for root in self.folders)

    def confine(self, given: str) -> Path:
        """The real path of the file ``given`` names: relative to a root (the first holding
        it) or absolute inside one. PathRefusedError names why anything else is refused."""
        if not self.folders:
            raise PathRefusedError(
                "no document roots are allowed", file=given, hint="start the server with --root DIR"
            )
        raw = Path(given)
        if ".." in raw.parts:
            raise PathRefusedError("'..' is not allowed in a document path", file=given)
        candidates = [raw] if raw.is_absolute() else [root / raw for root in self.folders]
        escaped = False
        for candidate in candidates:
            real = Path(os.path.realpath(candidate))
            if not self._inside(real):
                escaped = True
                continue
            if real.is_file():
                return real
        if raw.is_absolute() and escaped:
            raise PathRefusedError("outside the allowed roots", file=given)
        if escaped:
            raise PathRefusedError("leads outside the allowed roots (through a link)", file=given)
        raise PathRefusedError("no such file in the allowed roots", file=given)
