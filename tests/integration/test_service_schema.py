"""The service's OpenAPI schema against its real answers: every JSON route names a response
model, and each answer of a real job (upload, poll, list, blocks, a review, its trail, its
revert, a delete) has exactly the fields its schema lists, all the required ones among them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from pagereader.config.options import Options
from pagereader.engine_server.server import serve_in_thread
from pagereader.http.auth import TokenStore
from pagereader.service.app import create_app
from pagereader.service.policy import ServiceLimits

from service_process import wait_finished

SCAN = Path(__file__).parents[2] / "examples" / "scan.png"
ADMIN = "admin-token-0123456789"


def _schema_of(openapi: dict[str, Any], path: str, method: str, status: str) -> dict[str, Any]:
    content = openapi["paths"][path][method]["responses"][status]["content"]
    ref = content["application/json"]["schema"]["$ref"]
    schema: dict[str, Any] = openapi["components"]["schemas"][ref.rsplit("/", 1)[1]]
    return schema


def _fits(answer: dict[str, Any], schema: dict[str, Any]) -> bool:
    fields = set(schema["properties"])
    return set(answer) == fields and set(schema.get("required", [])) <= set(answer)


def test_every_answer_has_the_fields_its_schema_lists(tmp_path: Path) -> None:
    tokens = TokenStore.parse(f"ada:admin:{ADMIN}", "test")
    app = create_app(tmp_path, Options(), limits=ServiceLimits(docs=True), tokens=tokens)
    with serve_in_thread(app) as url:
        headers = {"Authorization": f"Bearer {ADMIN}"}
        client = httpx.Client(base_url=url.removesuffix("/v1"), timeout=30, headers=headers)
        openapi = client.get("/openapi.json").json()
        files = {"file": ("scan.png", SCAN.read_bytes(), "image/png")}
        submitted = client.post("/v1/documents", files=files)
        assert submitted.status_code == 202
        job_id = submitted.json()["id"]
        assert submitted.headers["Location"] == f"/v1/jobs/{job_id}"
        assert wait_finished(client, job_id)["status"] == "ok"
        blocks = client.get(f"/v1/jobs/{job_id}/blocks").json()
        first = blocks["blocks"][0]
        review = client.post(
            f"/v1/jobs/{job_id}/reviews",
            json={"page": first["page"], "block": first["block"], "action": "approve"},
        )
        assert review.status_code == 201
        answers = [
            ("/v1/documents", "post", "202", submitted.json()),
            ("/v1/jobs/{job_id}", "get", "200", client.get(f"/v1/jobs/{job_id}").json()),
            ("/v1/jobs", "get", "200", client.get("/v1/jobs").json()),
            ("/healthz", "get", "200", client.get("/healthz").json()),
            ("/v1/jobs/{job_id}/blocks", "get", "200", blocks),
            ("/v1/jobs/{job_id}/reviews", "post", "201", review.json()),
            (
                "/v1/jobs/{job_id}/reviews",
                "get",
                "200",
                client.get(f"/v1/jobs/{job_id}/reviews").json(),
            ),
        ]
        undone = client.delete(f"/v1/jobs/{job_id}/reviews/{review.json()['id']}")
        answers.append(("/v1/jobs/{job_id}/reviews/{review_id}", "delete", "200", undone.json()))
        answers.append(
            ("/v1/jobs/{job_id}", "delete", "200", client.delete(f"/v1/jobs/{job_id}").json())
        )
        for path, method, status, answer in answers:
            schema = _schema_of(openapi, path, method, status)
            assert _fits(answer, schema), (path, method, sorted(answer), schema)
        job_schema = openapi["components"]["schemas"]["JobView"]
        assert _fits(answers[2][3]["jobs"][0], job_schema)
        entry_schema = openapi["components"]["schemas"]["BlockEntry"]
        assert all(_fits(entry, entry_schema) for entry in blocks["blocks"])
        body = openapi["paths"]["/v1/jobs/{job_id}/reviews"]["post"]["requestBody"]
        fields = body["content"]["application/json"]["schema"]["properties"]
        assert set(fields) == {"page", "block", "action", "text"}
        upload = openapi["paths"]["/v1/documents"]["post"]["requestBody"]["content"]
        assert upload["multipart/form-data"]["schema"]["required"] == ["file"]
        client.close()
