"""Shared pytest fixtures: the generated document set (built once, cached between runs)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))

from fixtures import Fixtures, build_fixtures

GENERATED = Path(__file__).parent / "fixtures" / "_generated"


@pytest.fixture(scope="session")
def fixtures() -> Fixtures:
    """Synthetic digital PDFs, scans, a PPTX and broken inputs, each with its ground truth."""
    return build_fixtures(GENERATED)
