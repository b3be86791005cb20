"""What `pagereader plan --emit-config` writes, run for real: its `vllm serve` commands start the
real server (the session's two recommended servers were started from them), and a scan parsed
with its config gets a 200 for every VLM request. A retry with more pixels is sent only when
the model would see more visual tokens."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import httpx
import pytest

from real_vllm.helpers import MAX_TOKENS, TASKS, parse
from real_vllm.servers import VllmSet, start_lines

pytestmark = pytest.mark.vllm

SERVED = ("general", "qwen3-vl-8b")


def runnable(
    vllm: VllmSet, path: Path, routes: dict[str, list[str]] | None = None, extra: str = ""
) -> Path:
    """The emitted config as a CPU run needs it: answers capped (the random model never stops),
    the page deadline past the CPU's seconds, the routes replaced when given, ``extra`` added."""
    caps = "max_tokens = { " + ", ".join(f"{t} = {MAX_TOKENS}" for t in TASKS) + " }"
    text = re.sub(r"^(\[engines\.[^\]]+\])$", rf"\1\n{caps}", vllm.config_text, flags=re.M)
    text = re.sub(r"^page_deadline_s = .*$", "page_deadline_s = 600.0", text, flags=re.M)
    if routes is not None:
        head, _, tail = text.partition("[routes]")
        rest = tail[tail.index("\n[") :] if "\n[" in tail else ""
        table = "\n".join(f"{json.dumps(k)} = {json.dumps(v)}" for k, v in routes.items())
        text = f"{head}[routes]\n{table}\n{rest}"
    path.write_text(text + extra, encoding="utf-8")
    return path


def test_the_emitted_serve_commands_started_the_servers(vllm: VllmSet) -> None:
    lines = start_lines(vllm.config_text)
    assert len(lines) == len(vllm.recommended) == 2
    for line in lines:
        assert "--trust-request-mm-kwargs" in line
        repo = line.split("vllm serve ", 1)[1].split()[0]
        server = next(s for s in vllm.recommended.values() if s.model == repo)
        emitted = shlex.split(line.split(f"vllm serve {repo} ", 1)[1])
        port = emitted.index("--port")
        emitted[port + 1] = str(server.port)
        assert server.argv[5 : 5 + len(emitted)] == emitted  # every flag, as emitted
        models = httpx.get(server.base_url + "/models", timeout=10).json()["data"]
        assert [m["id"] for m in models] == [repo]


def _served_attempts(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        attempt
        for page in document["pages"]
        for block in page["blocks"]
        for attempt in block["attempts"]
        if attempt["engine"] in SERVED
    ]


def test_a_scan_through_the_emitted_config_gets_200_for_every_vlm_request(
    vllm: VllmSet, tmp_path: Path
) -> None:
    run = parse(runnable(vllm, tmp_path / "c.toml"), tmp_path / "out")
    assert run.returncode == 0, run.output
    document = run.document()
    assert document["status"] == "ok" and document["errors"] == []
    served = _served_attempts(document)
    assert served, "no block was sent to a VLM"
    assert all(a["ok"] and a["http_status"] == 200 for a in served), served
    assert all(a["prompt_tokens"] and a["completion_tokens"] for a in served)


def test_retry_with_more_pixels_only_when_the_visual_tokens_change(
    vllm: VllmSet, tmp_path: Path
) -> None:
    """The random answers disagree with the OCR reference; with no engine to escalate to, the
    verifier's remedy is a retry with more pixels. With a budget of 100,352 pixels the scan's
    larger crops are over it (a retry at twice the budget is more visual tokens: sent) and its
    smaller ones under (the same request again: not sent, and the verdict says why)."""
    routes = {"scan.*": ["general"], "dense.*": ["general"]}
    budget = "\n".join(
        ["", "[classify]", "min_pixels = 3136"]
        + [f"{c}_max_pixels = 100352" for c in ("sparse", "normal", "dense")]
    )
    run = parse(runnable(vllm, tmp_path / "c.toml", routes, budget + "\n"), tmp_path / "out")
    assert run.returncode == 0, run.output
    blocks = [b for p in run.document()["pages"] for b in p["blocks"]]
    retried = not_chosen = 0
    for block in blocks:
        answers = [a for a in block["attempts"] if a["engine"] == "general" and a["ok"]]
        tokens = [a["prompt_tokens"] for a in answers]
        assert tokens == sorted(set(tokens)), f"a retry sent the same visual tokens: {tokens}"
        retried += len(answers) > 1
        notes = [f["message"] for f in block["verdict"]["findings"] if "not chosen" in f["message"]]
        for note in notes:
            before, after = re.findall(r"([\d,]+) visual tokens .* would be ([\d,]+)", note)[0]
            assert before == after
        not_chosen += bool(notes)
    assert retried > 0 and not_chosen > 0, (retried, not_chosen)
