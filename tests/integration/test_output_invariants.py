"""What a reviewer's decisions do to a finished job's outputs, through the real service: every
output is written by the writer a parse writes with, so approving every block changes no byte
of any output, and an edited article number moves the structure tree, the chunk's article and
heading path, and what ``pagereader diff`` reports against the parse's own output."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pagereader.cli.main import app
from pagereader.config.options import Options
from pagereader.document.outputs import OUTPUTS
from pagereader.engine_server.server import serve_in_thread
from pagereader.service.app import create_app

from fixtures.statute_versions import ZH, write_versions
from review_service import client, token_store
from service_process import wait_finished

TEXT_OUTPUTS = ("document.md", "chunks.jsonl", "review.md", "timings.json")


def _upload(url: str, pdf: Path) -> tuple[str, list[dict[str, object]]]:
    reviewer = client(url, "reviewer")
    upload = {"file": (pdf.name, pdf.read_bytes(), "application/pdf")}
    job_id = reviewer.post("/v1/documents", files=upload).json()["id"]
    assert wait_finished(reviewer, job_id)["status"] == "ok"
    blocks = reviewer.get(f"/v1/jobs/{job_id}/blocks").json()["blocks"]
    return job_id, blocks


def _files(folder: Path) -> dict[str, bytes]:
    names = (name for name in OUTPUTS.names() if (folder / name).is_file())
    return {name: (folder / name).read_bytes() for name in names}


def test_approving_every_block_changes_no_output(tmp_path: Path) -> None:
    pdf = write_versions(ZH, tmp_path / "in", scanned=False).old
    data = tmp_path / "data"
    with serve_in_thread(create_app(data, Options(), tokens=token_store())) as url:
        base = url.removesuffix("/v1")
        job_id, blocks = _upload(base, pdf)
        folder = data / "jobs" / job_id
        before = _files(folder)
        assert set(TEXT_OUTPUTS) | {"document.json"} <= set(before)
        reviewer = client(base, "reviewer")
        for block in blocks:
            decision = {"page": block["page"], "block": block["block"], "action": "approve"}
            assert reviewer.post(f"/v1/jobs/{job_id}/reviews", json=decision).status_code == 201
        served = reviewer.get(f"/v1/jobs/{job_id}/document.md")
        assert served.headers["content-type"] == "text/markdown; charset=utf-8"
        assert reviewer.get(f"/v1/jobs/{job_id}/stray.txt").status_code == 404
    after = _files(folder)
    assert len(blocks) > 3
    for name in (*TEXT_OUTPUTS, "document.json"):
        assert after[name] == before[name], name
    assert after["document.original.json"] == before["document.json"]


def test_an_edited_article_number_moves_tree_chunks_and_diff(tmp_path: Path) -> None:
    pdf = write_versions(ZH, tmp_path / "in", scanned=False).old
    data = tmp_path / "data"
    with serve_in_thread(create_app(data, Options(), tokens=token_store())) as url:
        base = url.removesuffix("/v1")
        job_id, blocks = _upload(base, pdf)
        folder = data / "jobs" / job_id
        kept = tmp_path / "parsed"
        kept.mkdir()
        for name, content in _files(folder).items():
            (kept / name).write_bytes(content)
        target = next(b for b in blocks if str(b["text"]).startswith("第二條"))
        edited = "第十二條" + str(target["text"]).removeprefix("第二條")
        decision = {"page": target["page"], "block": target["block"], "action": "edit"}
        answer = client(base, "reviewer").post(
            f"/v1/jobs/{job_id}/reviews", json={**decision, "text": edited}
        )
        assert answer.status_code == 201, answer.text
    tree = [n["id"] for n in json.loads((folder / "document.json").read_text())["structure"]]
    assert "art-12" in tree and "art-2" not in tree
    chunks = [json.loads(line) for line in (folder / "chunks.jsonl").read_text().splitlines()]
    moved = [c for c in chunks if c["article_id"] == "art-12"]
    assert moved and all(c["heading_path"][-1] == "第十二條" for c in moved)
    assert not any(c["article_id"] == "art-2" for c in chunks)

    done = CliRunner().invoke(app, ["diff", str(kept), str(folder), "-o", str(tmp_path / "d")])
    assert done.exit_code == 0, done.output
    report = (tmp_path / "d" / "diff.md").read_text(encoding="utf-8")
    assert "第十二條" in report and "第二條" in report
