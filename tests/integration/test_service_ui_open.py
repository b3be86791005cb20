"""The web UI of an open (tokenless, loopback) service: no login form to pass, a session made
on the first visit, and file names escaped in the jobs list."""

from __future__ import annotations

import io
import re
from pathlib import Path

import httpx
from fastapi.testclient import TestClient
from PIL import Image

from pagereader.config.options import Options
from pagereader.engine_server.server import serve_in_thread
from pagereader.service.app import create_app

from service_process import wait_finished


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


Placed = tuple[tuple[float, float, float, float], tuple[float, float, str]]


def _svg_boxes_and_numbers(html: str) -> list[Placed]:
    """Each block's rectangle on the document view and where its order number is drawn."""
    groups = re.findall(r'<g class="outline[^"]*"[^>]*>(.*?)</g>', html, re.S)
    found: list[Placed] = []
    for group in groups:
        rect = re.search(
            r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', group
        )
        text = re.search(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*text-anchor="(\w+)"', group)
        assert rect and text, group
        x, y, w, h = (float(v) for v in rect.groups())
        found.append(((x, y, x + w, y + h), (float(text[1]), float(text[2]), str(text[3]))))
    return found


def test_a_document_with_nothing_flagged_says_so_and_numbers_sit_outside_the_boxes(
    tmp_path: Path,
) -> None:
    """The shipped scan is read with every block accepted: the review page says there is
    nothing to review and folds the accepted blocks away instead of listing them as a queue;
    the document view draws each order number beside its box (right-aligned to the box's left
    edge, or above it), never inside it over the text."""
    scan = Path(__file__).parents[2] / "examples" / "scan.png"
    with serve_in_thread(create_app(tmp_path, Options())) as url:
        browser = httpx.Client(base_url=url.removesuffix("/v1"), timeout=60)
        browser.get("/ui/")
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', browser.get("/ui/").text)
        assert csrf
        files = {"file": ("scan.png", scan.read_bytes(), "image/png")}
        assert (
            browser.post("/ui/upload", files=files, data={"csrf_token": csrf[1]}).status_code == 303
        )
        job_id = browser.get("/v1/jobs").json()["jobs"][0]["id"]
        assert wait_finished(browser, job_id)["status"] == "ok"
        verdicts = {b["verdict"] for b in browser.get(f"/v1/jobs/{job_id}/blocks").json()["blocks"]}
        assert verdicts == {"accept"}
        review = browser.get(f"/ui/jobs/{job_id}/review").text
        assert "Nothing to review: every block was accepted as first answered" in review
        folded = review.split('<details class="accepted" open>', 1)
        assert len(folded) == 2 and 'class="item' not in folded[0] and 'class="item' in folded[1]
        document = browser.get(f"/ui/jobs/{job_id}").text
        placed = _svg_boxes_and_numbers(document)
        assert placed
        for (x0, y0, x1, _y1), (x, y, anchor) in placed:
            beside_left = anchor == "end" and x == x0
            above = anchor == "start" and y == y0 and x == x0
            assert beside_left or above or (anchor == "start" and x == x1), (x0, y0, x, y, anchor)
