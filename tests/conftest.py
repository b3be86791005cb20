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


#: Markers of tests against real servers from venvs of their own, each run only with its option.
REAL_SERVERS = {
    "vllm": "run the tests marked vllm, against the real vLLM server (make test-vllm)",
    "mlx": "run the tests marked mlx, against the real mlx-vlm server (make test-mlx)",
}


def pytest_addoption(parser: pytest.Parser) -> None:
    for marker, help_text in REAL_SERVERS.items():
        parser.addoption(f"--{marker}", action="store_true", help=help_text)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``vllm`` run only with ``--vllm`` and those marked ``mlx`` only with
    ``--mlx``: they start real servers (minutes, up to 12 GiB) from venvs of their own, so
    ``make test`` leaves them to ``make test-vllm`` and ``make test-mlx``."""
    off = [marker for marker in REAL_SERVERS if not config.getoption(f"--{marker}")]
    deselected = [item for item in items if any(item.get_closest_marker(m) for m in off)]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        dropped = set(deselected)
        items[:] = [item for item in items if item not in dropped]
