"""Where the shared evaluation data and GPU measurements live: ``../shared`` beside the
repository, or the folder ``PAGEREADER_SHARED`` names. A test that needs them fails (never
skips) when they are missing, so a broken setup cannot pass as a green run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ENV = "PAGEREADER_SHARED"
REPO = Path(__file__).resolve().parents[1]


def shared_root() -> Path:
    """The shared folder (it may not exist; :func:`shared` checks)."""
    return Path(os.environ.get(ENV) or REPO.parent / "shared")


def shared(*parts: str) -> Path:
    """A path under the shared folder; the calling test fails when it is missing."""
    path = shared_root().joinpath(*parts)
    if not path.exists():
        pytest.fail(
            f"shared data missing: {path} (expected ../shared beside the repository, or set {ENV})",
            pytrace=False,
        )
    return path
