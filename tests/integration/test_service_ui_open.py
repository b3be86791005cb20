"""The web UI of an open (tokenless, loopback) service: no login form to pass, a session made
on the first visit, and file names escaped in the jobs list."""

from __future__ import annotations

import io
import re
from pathlib import Path

import httpx
from fastapi.testclient import TestClient
from PIL import Image

from pagereader.engine_server.app import serve_in_thread
from pagereader.options import Options
from pagereader.service.app import create_app


def test_open_service_ui_makes_a_session_and_escapes_names(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 20), "white").save(buffer, format="PNG")
    with serve_in_thread(create_app(tmp_path, Options())) as url:
        base = url.removesuffix("/v1")
        browser = httpx.Client(base_url=base, timeout=60)
        first = browser.get("/ui/")
        assert first.status_code == 303 and first.headers["location"] == "/ui/"
        assert "httponly" in first.headers["set-cookie"].lower()
        page = browser.get("/ui/")
        assert page.status_code == 200 and "anonymous" in page.text and "admin" in page.text
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
        assert csrf

        name = "<img src=x onerror=alert(1)>.png"
        files = {"file": (name, buffer.getvalue(), "image/png")}
        refused = browser.post("/ui/upload", files=files)
        assert refused.status_code == 403 and not list((tmp_path / "uploads").iterdir())
        sent = browser.post("/ui/upload", files=files, data={"csrf_token": csrf.group(1)})
        assert sent.status_code == 303
        listing = browser.get("/ui/").text
        assert "&lt;img src=x onerror=alert(1)&gt;.png" in listing
        assert "<img src=x" not in listing
        assert (
            browser.get("/ui/static/review.js")
            .headers["content-type"]
            .startswith("text/javascript")
        )


def test_the_jobs_page_shows_fifty_newest_first_and_pages_on(tmp_path: Path) -> None:
    app = create_app(tmp_path, Options())
    store = app.state.service.store
    for n in range(55):  # jobs in the store only: no worker runs without the lifespan
        store.create(f"{n:032x}", f"deck-{n:02d}.pdf", "0" * 64, tmp_path / "jobs" / str(n))
    browser = TestClient(app, base_url="http://127.0.0.1")  # no lifespan: no worker claims them
    first = browser.get("/ui/").text
    names = re.findall(r">(deck-\d\d\.pdf)<", first)
    assert names == [f"deck-{n:02d}.pdf" for n in range(54, 4, -1)]
    assert 'href="/ui/?page=2"' in first and "newer" not in first
    second = browser.get("/ui/", params={"page": 2}).text
    assert re.findall(r">(deck-\d\d\.pdf)<", second) == [
        f"deck-{n:02d}.pdf" for n in range(4, -1, -1)
    ]
    assert 'href="/ui/?page=1"' in second and "older" not in second
    assert browser.get("/ui/", params={"page": 0}).status_code == 422
