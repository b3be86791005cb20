"""Helpers of the adversarial tests: run the ``pagereader`` command as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


def cli_env(**extra: str) -> dict[str, str]:
    """The environment of a ``python -m pagereader`` child: this checkout's sources first."""
    path = os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "OMP_THREAD_LIMIT": "1", "COLUMNS": "200", **extra}


def run_cli(
    *args: str | Path, timeout: float = 300, **kwargs: Any
) -> subprocess.CompletedProcess[str]:
    """``python -m pagereader ARGS`` in a child process; its output as text."""
    env = kwargs.pop("env", None) or cli_env()
    return subprocess.run(
        [sys.executable, "-m", "pagereader", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        **kwargs,
    )


@pytest.fixture
def cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    return run_cli
