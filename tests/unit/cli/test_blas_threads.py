"""The command line asks numpy's OpenBLAS for one thread unless the user chose a number."""

from __future__ import annotations

import os
import subprocess
import sys


def _blas_threads(env: dict[str, str]) -> str:
    code = "import pagereader.cli.main, numpy, os\nprint(os.environ['OPENBLAS_NUM_THREADS'])\n"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.strip()


def test_one_blas_thread_by_default() -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    assert _blas_threads(env) == "1"


def test_the_users_choice_is_kept() -> None:
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "3"}
    assert _blas_threads(env) == "3"
