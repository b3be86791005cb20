"""The real mlx-vlm servers of a ``make test-mlx`` session (servers.py), started once and
concurrently, and stopped at the end."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from real_mlx.servers import (
    FAMILIES,
    START_TIMEOUT_S,
    WORK,
    MlxSet,
    build_model,
    mlx_python,
    server_argv,
)
from real_vllm.servers import Server, wait_all

from service_process import free_port


@pytest.fixture(scope="session")
def mlx() -> Iterator[MlxSet]:
    python = mlx_python()
    WORK.mkdir(parents=True, exist_ok=True)
    models = {family: build_model(python, family) for family in FAMILIES}
    servers: dict[str, Server] = {}
    for family, model in models.items():
        port = free_port()
        argv = server_argv(python, model, port)
        servers[family] = Server(family, argv, port, WORK / "logs" / f"{family}.log", str(model))
    for server in servers.values():
        server.start()
    try:
        wait_all(list(servers.values()), START_TIMEOUT_S)
    except RuntimeError as exc:
        for server in servers.values():
            server.stop()
        pytest.fail(str(exc), pytrace=False)
    started = ", ".join(f"{s.name} {s.up_after_s:.0f} s" for s in servers.values())
    print(f"\nmlx-vlm servers up: {started}", file=sys.stderr)
    try:
        yield MlxSet(servers, models)
    finally:
        for server in servers.values():
            server.stop()
