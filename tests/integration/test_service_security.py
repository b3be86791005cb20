"""The service's security promises, against a real `pagereader serve` process on loopback:
tokens and roles, closed CORS, uploads limited while they stream (measured on the server's
disk), safe file names, the bind check, and cancelling a running job."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from fixtures import Fixtures
from service_process import ServerProcess, running, serve_args, server_env, wait_finished

DECK = Path(__file__).parents[2] / "examples" / "deck.pdf"
MIB = 1024 * 1024


@pytest.fixture(scope="module")
def tokens() -> dict[str, str]:
    return {role: secrets.token_urlsafe(24) for role in ("reader", "reviewer", "admin")}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, tokens: dict[str, str]) -> Iterator[Any]:
    root = tmp_path_factory.mktemp("secure")
    token_file = root / "tokens.txt"
    token_file.write_text(
        "# name:role:token\n" + "".join(f"{r}-user:{r}:{t}\n" for r, t in tokens.items())
    )
    spool = root / "tmp"
    spool.mkdir()
    env = server_env(TMPDIR=str(spool))
    extra = ("--token-file", str(token_file), "--max-upload-mb", "10")
    with running(root / "data", root / "server.log", *extra, env=env) as process:
        process.spool = spool  # type: ignore[attr-defined]
        process.data_dir = root / "data"  # type: ignore[attr-defined]
        yield process


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _upload(url: str, token: str, name: str, data: bytes, **headers: str) -> httpx.Response:
    return httpx.post(
        f"{url}/v1/documents",
        files={"file": (name, data, "application/octet-stream")},
        headers={**_auth(token), **headers},
        timeout=30,
    )


def _wait(url: str, token: str, job_id: str) -> dict[str, Any]:
    with httpx.Client(base_url=url, headers=_auth(token), timeout=30) as http:
        return wait_finished(http, job_id, 180)


def _disk_bytes(*folders: Path) -> int:
    """Bytes of the files under ``folders``; files and folders removed while they are walked
    (the server deletes a refused upload) count as gone, so the sampler never stops early."""
    total = 0
    for folder in folders:
        for root, _, files in os.walk(folder):
            for name in files:
                try:
                    total += os.stat(os.path.join(root, name)).st_size
                except FileNotFoundError:
                    continue
    return total


def test_tokens_and_roles(server: ServerProcess, tokens: dict[str, str]) -> None:
    url = server.url
    missing = httpx.get(f"{url}/v1/jobs")
    assert missing.status_code == 401 and missing.headers["www-authenticate"] == "Bearer"
    assert httpx.get(f"{url}/v1/jobs", headers=_auth("x" * 32)).status_code == 401
    basic = httpx.get(f"{url}/v1/jobs", headers={"Authorization": f"Basic {tokens['admin']}"})
    assert basic.status_code == 401
    assert httpx.post(f"{url}/v1/documents", files={"file": ("a.pdf", b"%PDF")}).status_code == 401
    assert httpx.get(f"{url}/healthz").status_code == 200
    for path in ("/docs", "/openapi.json", "/redoc"):
        assert httpx.get(f"{url}{path}", headers=_auth(tokens["admin"])).status_code == 404

    assert httpx.get(f"{url}/v1/jobs", headers=_auth(tokens["reader"])).json() == {
        "jobs": [],
        "next_cursor": None,
    }
    refused = _upload(url, tokens["reader"], "deck.pdf", DECK.read_bytes())
    assert refused.status_code == 403 and "reviewer" in refused.json()["error"]
    accepted = _upload(url, tokens["reviewer"], "deck.pdf", DECK.read_bytes())
    assert accepted.status_code == 202
    job_id = accepted.json()["id"]
    job = _wait(url, tokens["reader"], job_id)
    assert job["status"] == "ok"
    overlay = httpx.get(f"{url}/v1/jobs/{job_id}/pages/1.png", headers=_auth(tokens["reader"]))
    assert overlay.content.startswith(b"\x89PNG")
    for role in ("reader", "reviewer"):
        answer = httpx.delete(f"{url}/v1/jobs/{job_id}", headers=_auth(tokens[role]))
        assert answer.status_code == 403 and "admin" in answer.json()["error"]
    deleted = httpx.delete(f"{url}/v1/jobs/{job_id}", headers=_auth(tokens["admin"]))
    assert deleted.json() == {"id": job_id, "deleted": True, "cancelled": False}
    assert "deleted by admin-user" in server.log.read_text()


def test_cross_origin_requests_are_refused(server: ServerProcess, tokens: dict[str, str]) -> None:
    url, admin = server.url, _auth(tokens["admin"])
    foreign = {"Origin": "https://evil.example"}
    upload = _upload(url, tokens["admin"], "deck.pdf", DECK.read_bytes(), **foreign)
    assert upload.status_code == 403 and "cross-origin" in upload.json()["error"]
    listed = httpx.get(f"{url}/v1/jobs", headers={**admin, **foreign})
    assert listed.status_code == 403
    preflight = httpx.options(
        f"{url}/v1/documents",
        headers={
            **foreign,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization",
        },
    )
    assert preflight.status_code == 403
    for answer in (upload, listed, preflight):
        assert not any(h.startswith("access-control-") for h in answer.headers)
    site = httpx.get(f"{url}/v1/jobs", headers={**admin, "Sec-Fetch-Site": "cross-site"})
    assert site.status_code == 403
    same = httpx.get(f"{url}/v1/jobs", headers={**admin, "Origin": url})
    assert same.status_code == 200 and same.headers["x-content-type-options"] == "nosniff"
    assert _count_jobs(url, tokens) == 0


def _count_jobs(url: str, tokens: dict[str, str]) -> int:
    return len(httpx.get(f"{url}/v1/jobs", headers=_auth(tokens["admin"])).json()["jobs"])


def _raw_upload(url: str, token: str, total: int, chunked: bool) -> tuple[str, int]:
    """Send a ``total``-byte multipart body over a raw socket; returns the status line the
    server answered and how many body bytes it took before answering or closing."""
    host, port = url.removeprefix("http://").split(":")
    boundary = "x" * 24
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n'
        "Content-Type: application/pdf\r\n\r\n"
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    length = len(head) + total + len(tail)
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {length}"
    request = (
        f"POST /v1/documents HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: multipart/form-data; boundary={boundary}\r\n{framing}\r\n\r\n"
    ).encode()
    sent = 0
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(request)
        pieces = [head, *([b"%" * MIB] * (total // MIB)), tail]
        try:
            for piece in pieces:
                sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                sent += len(piece)
            if chunked:
                sock.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        try:
            answer = sock.recv(4096).decode("latin-1")
        except ConnectionResetError:
            answer = ""
    return answer.split("\r\n", 1)[0], sent


@pytest.mark.parametrize("chunked", [True, False], ids=["chunked", "content-length"])
def test_upload_limit_while_streaming(
    server: ServerProcess, tokens: dict[str, str], chunked: bool
) -> None:
    spool: Path = server.spool  # type: ignore[attr-defined]
    data_dir: Path = server.data_dir  # type: ignore[attr-defined]
    peak, done = [0], threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _disk_bytes(spool, data_dir / "uploads"))
            time.sleep(0.005)

    before = _count_jobs(server.url, tokens)
    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        status, sent = _raw_upload(server.url, tokens["admin"], 50 * MIB, chunked)
    finally:
        done.set()
        sampler.join()
    assert status.startswith("HTTP/1.1 413 ") or (status == "" and sent < 50 * MIB), status
    if not chunked:
        assert status.startswith("HTTP/1.1 413 ")
    assert peak[0] < 2 * 10 * MIB, f"peak {peak[0] / MIB:.1f} MiB on the server's disk"
    assert _count_jobs(server.url, tokens) == before
    assert not any((data_dir / "uploads").glob("*/*"))
    print(
        f"\n{'chunked' if chunked else 'content-length'}: peak server disk "
        f"{peak[0] / MIB:.1f} MiB, client sent {sent / MIB:.1f} MiB before the refusal"
    )


def test_long_names_and_encrypted_hint(
    server: ServerProcess, tokens: dict[str, str], fixtures: Fixtures
) -> None:
    url, token = server.url, tokens["reviewer"]
    name = "n" * 300 + ".pdf"
    accepted = _upload(url, token, name, DECK.read_bytes())
    assert accepted.status_code == 202, accepted.text
    stored = accepted.json()["file"]
    assert stored.endswith(".pdf") and len(stored.encode()) <= 255 and stored.startswith("nnn")
    job = _wait(url, token, accepted.json()["id"])
    assert job["status"] == "ok" and job["file"] == stored

    for bad in (".pdf", "dir/.pdf", "x" * 300 + ".exe"):
        refused = _upload(url, token, bad, b"%PDF-1.4")
        assert refused.status_code == 400, (bad, refused.text)
    folders = {p.name for p in (server.data_dir / "uploads").iterdir()}  # type: ignore[attr-defined]
    listed = {j["id"] for j in httpx.get(f"{url}/v1/jobs", headers=_auth(token)).json()["jobs"]}
    assert folders <= listed, "an upload folder without a job"

    encrypted = _upload(url, token, "locked.pdf", fixtures.encrypted_pdf.read_bytes())
    failed = _wait(url, token, encrypted.json()["id"])
    assert failed["status"] == "failed"
    assert failed["errors"][0].startswith("locked.pdf")
    assert "--password" not in failed["errors"][0]
    assert "takes no passwords: decrypt the PDF first" in failed["errors"][0]


def test_image_over_the_pixel_budget_is_refused_from_its_header(
    server: ServerProcess, tokens: dict[str, str], fixtures: Fixtures
) -> None:
    bomb = fixtures.png_bomb.read_bytes()
    refused = _upload(server.url, tokens["reviewer"], "bomb.png", bomb)
    assert refused.status_code == 413
    assert "render.max_image_pixels" in refused.json()["error"]
    assert not any((server.data_dir / "uploads").glob("*/bomb.png"))  # type: ignore[attr-defined]


def test_delete_cancels_a_running_job(server: ServerProcess, tokens: dict[str, str]) -> None:
    url, admin = server.url, tokens["admin"]
    # a distinct file each time (bytes after %%EOF), so no page comes from the cache
    data = DECK.read_bytes() + f"\n% {secrets.token_hex(8)}\n".encode()
    job_id = _upload(url, admin, "slow.pdf", data).json()["id"]
    deadline = time.monotonic() + 60
    while httpx.get(f"{url}/v1/jobs/{job_id}", headers=_auth(admin)).json()["status"] != "running":
        assert time.monotonic() < deadline
        time.sleep(0.02)
    deleted = httpx.delete(f"{url}/v1/jobs/{job_id}", headers=_auth(admin), timeout=60)
    assert deleted.json() == {"id": job_id, "deleted": True, "cancelled": True}
    assert httpx.get(f"{url}/v1/jobs/{job_id}", headers=_auth(admin)).status_code == 404
    assert not (server.data_dir / "jobs" / job_id).exists()  # type: ignore[attr-defined]
    assert f"job {job_id}: cancelled" in server.log.read_text()
    after = _upload(url, admin, "deck.pdf", DECK.read_bytes()).json()["id"]
    assert _wait(url, admin, after)["status"] == "ok", "the worker survives a cancel"


def test_open_server_binds_loopback_only(tmp_path: Path) -> None:
    args = serve_args(tmp_path / "data", 0)
    args[args.index("127.0.0.1")] = "0.0.0.0"
    refused = subprocess.run(args, env=server_env(), capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2
    assert "refusing to listen on 0.0.0.0 without API tokens" in refused.stderr
    assert not (tmp_path / "data").exists()
    bad = subprocess.run(
        args, env=server_env(PAGEREADER_TOKENS="a:root:short"), capture_output=True, text=True
    )
    assert bad.returncode == 2 and "NAME:ROLE:TOKEN" in bad.stderr


def test_open_server_refuses_foreign_host_names(tmp_path: Path) -> None:
    with running(tmp_path / "data", tmp_path / "log") as server:
        port = server.url.rsplit(":", 1)[1]
        assert httpx.get(f"{server.url}/v1/jobs").json() == {"jobs": [], "next_cursor": None}
        rebound = httpx.get(f"{server.url}/v1/jobs", headers={"Host": f"evil.example:{port}"})
        assert rebound.status_code == 403 and "loopback" in rebound.json()["error"]


def test_every_error_has_one_shape(server: Any, tokens: dict[str, str]) -> None:
    """A missing token, a wrong role, an unknown job, route or method, a bad query, a bad body
    and an upload past the limit: each answer is {"error", "code", "status"} (and "fields" on a
    422), whichever part of the service refused it."""
    url, reader, reviewer = server.url, _auth(tokens["reader"]), _auth(tokens["reviewer"])
    answers = {
        "unauthorized": httpx.get(f"{url}/v1/jobs", timeout=10),
        "forbidden": httpx.delete(f"{url}/v1/jobs/nope", headers=reader, timeout=10),
        "not_found": httpx.get(f"{url}/v1/jobs/nope", headers=reader, timeout=10),
        "bad_request": httpx.get(f"{url}/v1/jobs?status=lost", headers=reader, timeout=10),
        "method_not_allowed": httpx.put(f"{url}/v1/jobs", headers=reader, timeout=10),
        "unsupported_media_type": httpx.post(
            f"{url}/v1/jobs/nope/reviews",
            content=b"page=1",
            headers={**reviewer, "Content-Type": "text/plain"},
            timeout=10,
        ),
        "too_large": _upload(url, tokens["reviewer"], "big.pdf", b"%PDF" + b"0" * (11 * MIB)),
    }
    answers["route_not_found"] = httpx.get(f"{url}/v2/nothing", headers=reader, timeout=10)
    for code, answer in answers.items():
        body = answer.json()
        expected = "not_found" if code == "route_not_found" else code
        assert set(body) == {"error", "code", "status"}, (code, body)
        assert body["code"] == expected and body["status"] == answer.status_code, (code, body)
        assert isinstance(body["error"], str) and body["error"], (code, body)
    assert answers["unauthorized"].headers["WWW-Authenticate"] == "Bearer"
    bad = httpx.post(
        f"{url}/v1/jobs/nope/reviews",
        json={"page": 1.7, "block": 0, "action": "approve"},
        headers=reviewer,
        timeout=10,
    )
    body = bad.json()
    assert bad.status_code == 422 and body["code"] == "invalid_body" and body["status"] == 422
    assert [f["field"] for f in body["fields"]] == ["page"]


def test_the_job_list_comes_a_page_at_a_time(server: Any, tokens: dict[str, str]) -> None:
    """limit and cursor: every job once, in the order of the whole list; a cursor the service
    did not give out is a 400, a limit out of range a 422 naming the field."""
    url, reader = server.url, _auth(tokens["reader"])
    for n in range(3):
        assert (
            _upload(url, tokens["reviewer"], f"page{n}.pdf", DECK.read_bytes()).status_code == 202
        )
    whole = httpx.get(f"{url}/v1/jobs?limit=1000", headers=reader, timeout=10).json()
    assert whole["next_cursor"] is None and len(whole["jobs"]) >= 3
    seen, cursor = [], None
    while True:
        query = "limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = httpx.get(f"{url}/v1/jobs?{query}", headers=reader, timeout=10).json()
        assert len(page["jobs"]) <= 2
        seen += [job["id"] for job in page["jobs"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [job["id"] for job in whole["jobs"]]
    bad = httpx.get(f"{url}/v1/jobs?cursor=../x", headers=reader, timeout=10)
    assert bad.status_code == 400 and bad.json()["code"] == "bad_request"
    out_of_range = httpx.get(f"{url}/v1/jobs?limit=0", headers=reader, timeout=10)
    body = out_of_range.json()
    assert out_of_range.status_code == 422 and body["code"] == "invalid_body"
    assert [f["field"] for f in body["fields"]] == ["query.limit"]
