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


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--vllm",
        action="store_true",
        help="run the tests marked vllm, against the real vLLM server (make test-vllm)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``vllm`` run only with ``--vllm``: they start real servers (minutes, about
    12 GiB) from a venv of their own, so ``make test`` leaves them to ``make test-vllm``."""
    if config.getoption("--vllm"):
        return
    deselected = [item for item in items if item.get_closest_marker("vllm")]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if not item.get_closest_marker("vllm")]
