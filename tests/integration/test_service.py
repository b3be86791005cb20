"""The document service over loopback: real uploads, polling, outputs, a restart on the same
data folder, and the HTTP answers for bad uploads and unfinished jobs."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from pagereader.config.options import Options
from pagereader.engine_server.server import serve_in_thread
from pagereader.http.auth import TokenStore
from pagereader.service.app import create_app
from pagereader.service.jobs.store import JobStore
from pagereader.service.policy import ServiceLimits

from service_process import wait_finished

DECK = Path(__file__).parents[2] / "examples" / "deck.pdf"


def _upload(client: httpx.Client, name: str, data: bytes) -> httpx.Response:
    return client.post("/v1/documents", files={"file": (name, data, "application/octet-stream")})


def _count_jobs(data_dir: Path) -> dict[str, int]:
    counts = JobStore(data_dir / "jobs.sqlite").counts()
    return {status: n for status, n in counts.items() if n}


def test_upload_poll_fetch_and_restart(tmp_path: Path) -> None:
    deck_bytes = DECK.read_bytes()
    with serve_in_thread(create_app(tmp_path, Options(), workers=2)) as url:
        client = httpx.Client(base_url=url.removesuffix("/v1"), timeout=30)
        assert client.get("/healthz").json()["status"] == "ok"

        accepted = _upload(client, "deck.pdf", deck_bytes)
        broken = _upload(client, "broken.pdf", b"%PDF-1.4 broken")
        assert accepted.status_code == broken.status_code == 202
        assert accepted.json()["status"] == "queued"
        deck_id, broken_id = accepted.json()["id"], broken.json()["id"]
        assert len(deck_id) == 32 and deck_id != broken_id
        assert (tmp_path / "uploads" / deck_id / "deck.pdf").read_bytes() == deck_bytes

        rejected = _upload(client, "notes.txt", b"plain text")
        assert rejected.status_code == 400
        assert "unsupported file type .txt" in rejected.json()["error"]
        assert ".pdf" in rejected.json()["error"]
        assert _upload(client, "empty.pdf", b"").status_code == 400

        job = wait_finished(client, deck_id)
        assert job["status"] == "ok", job
        assert job["pages_done"] == job["pages_total"] == 4
        assert job["errors"] == [] and job["file"] == "deck.pdf"
        document = client.get(f"/v1/jobs/{deck_id}/document.json").json()
        assert document["status"] == "ok" and len(document["pages"]) == 4
        markdown = client.get(f"/v1/jobs/{deck_id}/document.md")
        assert markdown.headers["content-type"].startswith("text/markdown")
        assert "Quarterly Operations Review" in markdown.text
        timings = client.get(f"/v1/jobs/{deck_id}/timings.json").json()
        assert isinstance(timings, dict) and timings
        assert client.get(f"/v1/jobs/{deck_id}/review.md").status_code == 200
        overlay = client.get(f"/v1/jobs/{deck_id}/pages/1.png")
        assert overlay.status_code == 200 and overlay.content.startswith(b"\x89PNG")
        assert client.get(f"/v1/jobs/{deck_id}/pages/9.png").status_code == 404
        assert client.get(f"/v1/jobs/{deck_id}/secrets.txt").status_code == 404

        failed = wait_finished(client, broken_id)
        assert failed["status"] == "failed"
        assert len(failed["errors"]) == 1 and failed["errors"][0].startswith("broken.pdf: ")
        assert str(tmp_path) not in failed["errors"][0]

        again = _upload(client, "deck.pdf", deck_bytes).json()["id"]
        assert wait_finished(client, again)["status"] == "ok"
        assert client.get(f"/v1/jobs/{again}/document.md").text == markdown.text
        with sqlite3.connect(tmp_path / "cache.sqlite") as db:
            assert db.execute("SELECT COUNT(*) FROM pages").fetchone()[0] == 4

        listed = client.get("/v1/jobs", params={"status": "ok"}).json()["jobs"]
        assert {j["id"] for j in listed} == {deck_id, again}
        assert client.get("/v1/jobs", params={"status": "done"}).status_code == 400
        deleted = client.delete(f"/v1/jobs/{again}").json()
        assert deleted == {"id": again, "deleted": True, "cancelled": False}
        assert client.get(f"/v1/jobs/{again}").status_code == 404
        assert not (tmp_path / "jobs" / again).exists()
        assert client.delete(f"/v1/jobs/{again}").status_code == 404
        client.close()

    assert _count_jobs(tmp_path) == {"ok": 1, "failed": 1}
    with sqlite3.connect(tmp_path / "jobs.sqlite") as db:
        db.execute("UPDATE jobs SET status='running', pages_done=2 WHERE id=?", (deck_id,))

    with serve_in_thread(create_app(tmp_path, Options())) as url:
        client = httpx.Client(base_url=url.removesuffix("/v1"), timeout=30)
        ids = [j["id"] for j in client.get("/v1/jobs").json()["jobs"]]
        assert ids == [deck_id, broken_id]
        resumed = wait_finished(client, deck_id)
        assert resumed["status"] == "ok" and resumed["pages_done"] == 4
        assert "Quarterly Operations Review" in client.get(f"/v1/jobs/{deck_id}/document.md").text
        client.close()


def test_unfinished_jobs_answer_409_and_bad_requests_400(tmp_path: Path) -> None:
    limits = ServiceLimits(max_upload_bytes=1000)
    client = TestClient(create_app(tmp_path, Options(), limits=limits), base_url="http://127.0.0.1")
    queued = client.post("/v1/documents", files={"file": ("scan.png", b"\x89PNG" + b"0" * 10)})
    assert queued.status_code == 202 and queued.headers["location"].endswith(queued.json()["id"])
    job_id = queued.json()["id"]
    answer = client.get(f"/v1/jobs/{job_id}/document.md")
    assert answer.status_code == 409 and "queued" in answer.json()["error"]
    assert client.get("/v1/jobs/0123/document.md").status_code == 404
    too_big = client.post("/v1/documents", files={"file": ("big.pdf", b"0" * 1001)})
    assert too_big.status_code == 413 and "limit of 1000 bytes" in too_big.json()["error"]
    missing = client.post("/v1/documents", data={"other": "x"})
    assert missing.status_code == 400 and "'file'" in missing.json()["error"]
    assert json.loads(client.get("/v1/jobs").text)["jobs"][0]["status"] == "queued"
    asyncio.run(client.app.state.service.stop())  # type: ignore[attr-defined]


def test_a_document_over_the_page_cap_fails_at_once(tmp_path: Path) -> None:
    limits = ServiceLimits(max_pages=3)
    with serve_in_thread(create_app(tmp_path, Options(), limits=limits)) as url:
        client = httpx.Client(base_url=url.removesuffix("/v1"), timeout=30)
        job = wait_finished(client, _upload(client, "deck.pdf", DECK.read_bytes()).json()["id"])
        assert job["status"] == "failed" and job["pages_done"] == 0
        assert job["errors"] == [
            "deck.pdf: 4 pages, over the limit of 3 pages per document "
            "(split the document, or raise limits.max_pages (serve: --max-pages))"
        ]
        client.close()


def test_docs_are_off_by_default_and_behind_tokens_when_on(tmp_path: Path) -> None:
    reader = "reader-token-0123456789"
    tokens = TokenStore.parse(f"ann:reader:{reader}", "test")
    for docs in (False, True):
        app = create_app(
            tmp_path / str(docs), Options(), limits=ServiceLimits(docs=docs), tokens=tokens
        )
        client = TestClient(app, base_url="http://127.0.0.1")
        for path in ("/docs", "/openapi.json"):
            anonymous = client.get(path)
            assert anonymous.status_code == (401 if docs else 404), (docs, path)
            assert "error" in anonymous.json()
            with_token = client.get(path, headers={"Authorization": f"Bearer {reader}"})
            assert with_token.status_code == (200 if docs else 404)
        if docs:
            schema = client.get("/openapi.json", headers={"Authorization": f"Bearer {reader}"})
            assert "/v1/documents" in schema.json()["paths"]
        asyncio.run(client.app.state.service.stop())  # type: ignore[attr-defined]
