"""A served engine that cannot answer is never silent: a server started without
``--trust-request-mm-kwargs``, a wrong model name and an unreachable port each give one line
naming the engine and what to do, are counted in the summary and in review.md, and fail the run
unless the engine accepts its fallback. A refusal that will repeat opens the circuit at the
preflight: no block request reaches the server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from real_vllm.helpers import ROOT, engine_config, parse
from real_vllm.servers import VllmSet

from service_process import free_port

pytestmark = pytest.mark.vllm


def _summary_counts(output: str) -> tuple[int, int]:
    """The errors and warnings of examples/scan.png's line in the summary (piped: one line per
    document, its path then each figure after its name)."""
    row = next(line for line in output.splitlines() if "scan.png" in line and " status " in line)
    words = row.split()
    return int(words[words.index("errors") + 1]), int(words[words.index("warnings") + 1])


def _engine_lines(output: str, name: str = "vlm") -> list[str]:
    joined = re.sub(r"\n(?!error|warning|\S+ page|\S)", " ", output)
    return [line for line in joined.splitlines() if f"engine {name} (" in line]


def _chat_4xx(vllm: VllmSet) -> float:
    return vllm.untrusted.metric(
        "http_requests_total", handler="/v1/chat/completions", status="4xx"
    )


def test_a_server_without_the_trust_flag_fails_the_run_at_the_preflight(
    vllm: VllmSet, tmp_path: Path
) -> None:
    server = vllm.untrusted
    config = engine_config(tmp_path / "c.toml", server.base_url, server.model)
    before = _chat_4xx(vllm)
    run = parse(config, tmp_path / "out")
    assert run.returncode == 1, run.output
    lines = _engine_lines(run.output)
    assert lines, run.output
    assert "--trust-request-mm-kwargs" in lines[0] and "HTTP 400" in lines[0]
    # the preflight's one request was refused; the circuit kept every block off the server
    assert _chat_4xx(vllm) - before == 1
    attempts = [a for a in run.attempts() if a["engine"] == "vlm"]
    assert attempts and all(not a["ok"] and "circuit open" in a["error"] for a in attempts)
    assert all(a["cause"] == "unreachable" for a in attempts)
    errors = [e for e in run.document()["errors"] if e["message"].startswith("engine vlm (")]
    assert len(errors) == 1
    assert "failed its start-up check" in errors[0]["message"]
    assert "--trust-request-mm-kwargs" in errors[0]["hint"]
    assert _summary_counts(run.output) == (len(run.document()["errors"]), 0)
    review = run.review()
    assert "every block was accepted" not in review
    assert "## Errors" in review and "--trust-request-mm-kwargs" in review


def test_the_fallback_accepted_passes_but_still_says_so(vllm: VllmSet, tmp_path: Path) -> None:
    server = vllm.untrusted
    config = engine_config(
        tmp_path / "c.toml", server.base_url, server.model, fallback_on_refusal=True
    )
    run = parse(config, tmp_path / "out")
    assert run.returncode == 0, run.output
    document = run.document()
    assert document["status"] == "ok" and document["errors"] == []
    [warning] = document["warnings"]
    assert warning.startswith(f"engine vlm ({server.base_url}): failed its start-up check")
    assert "fallback accepted" in warning and "--trust-request-mm-kwargs" in warning
    assert _summary_counts(run.output) == (0, 1)
    assert "## Warnings" in run.review() and "every block was accepted" not in run.review()
    blocks = [b for p in document["pages"] for b in p["blocks"]]
    assert blocks and all(b["engine"] != "vlm" for b in blocks)


def test_a_wrong_model_name(vllm: VllmSet, tmp_path: Path) -> None:
    server = vllm.family("qwen2_vl")
    config = engine_config(tmp_path / "c.toml", server.base_url, "no-such-model")
    run = parse(config, tmp_path / "out")
    assert run.returncode == 1, run.output
    lines = _engine_lines(run.output)
    assert lines and "HTTP 404" in lines[0] and "no-such-model" in lines[0]
    assert "[engines.vlm] model" in lines[0]
    [error] = [e for e in run.document()["errors"] if e["message"].startswith("engine vlm (")]
    assert "NotFoundError" in error["message"] and "[engines.vlm] model" in error["hint"]
    assert "[engines.vlm] model" in run.review()


def test_an_unreachable_port_with_the_shipped_serve_engine_config(tmp_path: Path) -> None:
    """examples/configs/serve-engine.toml with no server behind it (problem 4 of the issue)."""
    shipped = (ROOT / "examples" / "configs" / "serve-engine.toml").read_text(encoding="utf-8")
    url = f"http://127.0.0.1:{free_port()}/v1"
    config = tmp_path / "serve-engine.toml"
    config.write_text(shipped.replace("http://127.0.0.1:8000/v1", url), encoding="utf-8")
    run = parse(
        config, tmp_path / "out", ROOT / "examples" / "deck.pdf", ROOT / "examples" / "scan.png"
    )
    assert run.returncode == 1, run.output
    lines = _engine_lines(run.output, "local")
    assert lines and "cannot connect" in lines[0] and "start the server" in lines[0]
    for name in ("deck", "scan"):
        errors = [
            e for e in run.document(name)["errors"] if e["message"].startswith("engine local (")
        ]
        assert len(errors) == 1, name
        assert "every block was accepted" not in run.review(name)
