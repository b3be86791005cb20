"""``pagereader parse`` of examples/deck.pdf with an engine of ``server = "mlx-vlm"`` routed to
the real mlx-vlm server: every request is answered 200 (counted in the server's own access
log, not by pagereader), and a wrong model name fails the run at the preflight with one line
naming the engine's model key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from real_mlx.servers import MlxSet
from real_vllm.helpers import ROOT, engine_config, parse
from real_vllm.servers import Server

pytestmark = pytest.mark.mlx

DECK = ROOT / "examples" / "deck.pdf"
ACCESS = re.compile(r'"POST /v1/chat/completions HTTP/1\.1" (\d{3})')


def _statuses(server: Server, since: int) -> list[int]:
    """The status of every chat request the server logged after byte ``since`` of its log."""
    with server.log.open("rb") as log:
        log.seek(since)
        text = log.read().decode("utf-8", errors="replace")
    return [int(code) for code in ACCESS.findall(text)]


@pytest.mark.parametrize("family", ["qwen2_vl", "qwen3_vl"])
def test_a_deck_parsed_through_mlx_vlm_gets_200_for_every_request(
    mlx: MlxSet, family: str, tmp_path: Path
) -> None:
    server = mlx.family(family)
    config = engine_config(
        tmp_path / "c.toml", server.base_url, server.model, family, server="mlx-vlm"
    )
    before = server.log.stat().st_size
    run = parse(config, tmp_path / "out", DECK)
    assert run.returncode == 0, run.output
    document = run.document("deck")
    assert document["status"] == "ok" and document["errors"] == [], document["errors"]
    served = [a for a in run.attempts("deck") if a["engine"] == "vlm"]
    assert served, "no block was sent to the VLM"
    assert all(a["ok"] and a["http_status"] == 200 for a in served), served
    assert all(a["prompt_tokens"] and a["completion_tokens"] for a in served)
    statuses = _statuses(server, before)
    # the preflight and one request a block, each answered 200 in the server's own log
    assert statuses == [200] * (len(served) + 1), statuses


def test_a_wrong_model_name_fails_the_run_at_the_preflight(mlx: MlxSet, tmp_path: Path) -> None:
    server = mlx.family("qwen2_vl")
    config = engine_config(tmp_path / "c.toml", server.base_url, "no-such-model", server="mlx-vlm")
    before = server.log.stat().st_size
    run = parse(config, tmp_path / "out", DECK)
    assert run.returncode == 1, run.output
    [error] = [e for e in run.document("deck")["errors"] if e["message"].startswith("engine vlm (")]
    assert "failed its start-up check" in error["message"]
    assert "HTTP 400: Failed to load model" in error["message"]
    assert "[engines.vlm] model" in error["hint"]
    attempts = [a for a in run.attempts("deck") if a["engine"] == "vlm"]
    assert attempts and all(a["cause"] == "unreachable" for a in attempts)
    # the circuit opened at the refused preflight: no block request reached the server
    assert _statuses(server, before) == [400]
