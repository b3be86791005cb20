"""GET /v1/jobs/{id}/chunks over a real job on loopback: a real_legal statute uploaded, read,
and its chunks served as a typed list behind the reader token, one per article of the
reference, described in /openapi.json."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from pagereader.config.options import Options
from pagereader.engine_server.server import serve_in_thread
from pagereader.http.auth import TokenStore
from pagereader.service.app import create_app
from pagereader.service.policy import ServiceLimits
from pagereader.structure.chunks import read_chunks_jsonl

from service_process import wait_finished
from shared_data import shared
from statute_refs import reference_articles

READER = "reader-token-0123456789"
REVIEWER = "reviewer-token-0123456789"


def test_chunks_of_a_real_job(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    pdf = shared("eval", "real_legal", "N0030001.pdf")
    tokens = TokenStore.parse(f"ann:reader:{READER},bob:reviewer:{REVIEWER}", "test")
    app = create_app(tmp_path, Options(), limits=ServiceLimits(docs=True), tokens=tokens)
    with serve_in_thread(app) as url:
        base = url.removesuffix("/v1")
        reviewer = httpx.Client(base_url=base, timeout=30)
        reviewer.headers["Authorization"] = f"Bearer {REVIEWER}"
        files = {"file": (pdf.name, pdf.read_bytes(), "application/pdf")}
        job_id = reviewer.post("/v1/documents", files=files).json()["id"]
        reader = httpx.Client(base_url=base, timeout=30)
        reader.headers["Authorization"] = f"Bearer {READER}"
        assert wait_finished(reader, job_id)["status"] == "ok"

        anonymous = httpx.get(f"{base}/v1/jobs/{job_id}/chunks", timeout=30)
        assert anonymous.status_code == 401
        answer = reader.get(f"/v1/jobs/{job_id}/chunks")
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["job"] == job_id
        served = body["chunks"]
        articles = [c["article_id"] for c in served if c["article_id"]]
        assert articles == [f"art-{number}" for number, _ in reference_articles("N0030001")]
        (spanning,) = [c for c in served if c["article_id"] == "art-32"]
        assert spanning["pages"] == [1, 2] and [b["page"] for b in spanning["boxes"]] == [1, 2]

        jsonl = reader.get(f"/v1/jobs/{job_id}/chunks.jsonl")
        assert jsonl.status_code == 200
        assert [c.model_dump(mode="json") for c in read_chunks_jsonl(jsonl.text)] == served
        markdown = reader.get(f"/v1/jobs/{job_id}/document.md").text
        for chunk in served:
            assert chunk["text"][:6] in markdown[chunk["md_start"] : chunk["md_end"]]
        assert reader.get("/v1/jobs/0123/chunks").status_code == 404

        schema = reader.get("/openapi.json").json()
        route = schema["paths"]["/v1/jobs/{job_id}/chunks"]["get"]
        ref = route["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
        assert ref.endswith("/ChunkList")
        chunk_schema = schema["components"]["schemas"]["Chunk"]
        assert {"id", "text", "heading_path", "article_id", "pages", "boxes", "blocks"} <= set(
            chunk_schema["properties"]
        )
        assert {"md_start", "md_end", "tokens"} <= set(chunk_schema["properties"])
        reviewer.close()
        reader.close()
