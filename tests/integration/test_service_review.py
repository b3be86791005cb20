"""Reviews over real HTTP: a scan read by a VLM that misreads "shall ensure" as "may ensure",
the verifier's flag, roles on decisions, CSRF on the UI's cookie session, an admin's revert and
delete, outputs regenerated with provenance, a restart, the evalset that `pagereader eval`
scores, and /metrics moving with the job."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families
from typer.testing import CliRunner

from pagereader.cli.main import app
from pagereader.config.options import Options
from pagereader.engine_server.server import serve_in_thread
from pagereader.service.app import create_app
from pagereader.service.reviews.corrections import ReviewStore
from pagereader.structure.chunks import read_chunks_jsonl
from pagereader.text.chars import char_consistency, normalize

from fixtures import Fixtures
from review_service import MISREAD, TOKENS, client, review_service, token_store, vlm_server
from service_process import wait_finished

RIGHT, WRONG = MISREAD
DECK = Path(__file__).parents[2] / "examples" / "deck.pdf"


def _metrics(http: httpx.Client) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    answer = http.get("/metrics")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    values = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            values[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return values


def _login(url: str, role: str) -> tuple[httpx.Client, str]:
    """A browser-like client logged in through the form; returns it and its CSRF token."""
    browser = httpx.Client(base_url=url, timeout=60)
    answer = browser.post("/ui/login", data={"token": TOKENS[role][1]})
    assert answer.status_code == 303 and answer.headers["location"] == "/ui/"
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    page = browser.get("/ui/")
    assert page.status_code == 200 and page.headers["x-content-type-options"] == "nosniff"
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert all(tag.startswith("<script src=") for tag in re.findall(r"<script[^>]*>", page.text))
    match = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert match, page.text
    return browser, match.group(1)


def _block(blocks: list[dict[str, Any]], text: str) -> dict[str, Any]:
    return next(b for b in blocks if text in b["answer"])


def test_review_roles_provenance_restart_evalset_metrics(
    tmp_path: Path, fixtures: Fixtures
) -> None:
    data = tmp_path / "data"
    truth = fixtures.pages(fixtures.scan_png)[0].body
    assert RIGHT in truth and WRONG not in truth
    with vlm_server() as vlm:
        with review_service(data, vlm) as url:
            reader, reviewer, admin = (
                client(url, "reader"),
                client(url, "reviewer"),
                client(url, "admin"),
            )
            before = _metrics(reader)
            assert client(url).get("/metrics").status_code == 401
            job_id = reviewer.post(
                "/v1/documents", files={"file": ("scan-en.png", fixtures.scan_png.read_bytes())}
            ).json()["id"]
            assert wait_finished(reader, job_id)["status"] == "ok"

            blocks = reader.get(f"/v1/jobs/{job_id}/blocks").json()["blocks"]
            misread = _block(blocks, WRONG)
            assert misread["verdict"] == "review"
            assert any("shall->may" in f for f in misread["findings"])
            assert RIGHT in misread["reference"] and misread["reference_source"] == "ocr"
            flagged = [b for b in blocks if b["verdict"] == "review"]
            assert blocks[: len(flagged)] == flagged  # flagged blocks come first
            after = _metrics(reader)
            scan = ("pagereader_pages_total", (("page_class", "scan"),))
            assert after[scan] - before.get(scan, 0) == 1
            assert after[("pagereader_engine_calls_total", (("engine", "vlm"),))] >= len(blocks) - 1
            assert after[("pagereader_jobs", (("status", "ok"),))] == 1
            queue = ("pagereader_review_queue_blocks", ())
            assert after[queue] == len(flagged) >= 1
            seconds = (
                "pagereader_page_seconds_count",
                (("page_class", "scan"), ("stage", "recognize")),
            )
            assert after[seconds] == 1

            fixed = misread["answer"].replace(WRONG, RIGHT)
            decision = {
                "page": misread["page"],
                "block": misread["block"],
                "action": "edit",
                "text": fixed,
            }
            assert reader.post(f"/v1/jobs/{job_id}/reviews", json=decision).status_code == 403
            assert (
                reviewer.post(
                    f"/v1/jobs/{job_id}/reviews", json={**decision, "block": 999}
                ).status_code
                == 404
            )
            wrongs: list[tuple[dict[str, Any], str]] = [
                ({"action": "x"}, "action"),
                ({"page": 1.7}, "page"),
                ({"block": True}, "block"),
                ({"page": 0}, "page"),
                ({"text": 123}, "text"),
                ({"text": ["x"]}, "text"),
                ({"extra": 1}, "extra"),
            ]
            for wrong, field in wrongs:
                refused = reviewer.post(f"/v1/jobs/{job_id}/reviews", json={**decision, **wrong})
                assert refused.status_code == 422, (wrong, refused.text)
                assert [f["field"] for f in refused.json()["fields"]] == [field], refused.text
                assert refused.json()["error"].startswith("send JSON")
            for body in ([1, 2], "text"):
                refused = reviewer.post(f"/v1/jobs/{job_id}/reviews", json=body)
                assert refused.status_code == 422, refused.text
            made = reviewer.post(f"/v1/jobs/{job_id}/reviews", json=decision)
            assert made.status_code == 201, made.text
            assert made.json()["who"] == "rita" and made.json()["original"] == misread["answer"]
            assert _metrics(reader)[queue] == len(flagged) - 1

            # the UI's cookie session: a post without the CSRF token is refused, with it accepted
            browser, csrf = _login(url, "reviewer")
            others = [b for b in flagged if b is not misread]
            # the other flags are OCR slips of the VLM; the reviewer takes the reference's reading
            form = {"page": "1", "block": "0", "action": "approve"}
            if others:
                form = {"page": "1", "block": str(others[0]["block"]), "action": "edit"}
                form["text"] = others[0]["reference"]
            assert browser.post(f"/ui/jobs/{job_id}/review", data=form).status_code == 403
            assert (
                browser.post(f"/v1/jobs/{job_id}/reviews", json={**form, "page": 1}).status_code
                == 403
            )
            foreign = {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}
            assert (
                browser.post(
                    f"/ui/jobs/{job_id}/review", data={**form, "csrf_token": csrf}, headers=foreign
                ).status_code
                == 403
            )
            delete = browser.post(f"/ui/jobs/{job_id}/delete", data={"csrf_token": csrf})
            assert delete.status_code == 403  # a reviewer deletes nothing
            accepted = browser.post(f"/ui/jobs/{job_id}/review", data={**form, "csrf_token": csrf})
            assert accepted.status_code == 303
            reader_browser, reader_csrf = _login(url, "reader")
            refused = reader_browser.post(
                f"/ui/jobs/{job_id}/review", data={**form, "csrf_token": reader_csrf}
            )
            assert refused.status_code == 403
            for other in others[1:]:
                edit = {"page": 1, "block": other["block"], "action": "edit"}
                made = reviewer.post(
                    f"/v1/jobs/{job_id}/reviews", json={**edit, "text": other["reference"]}
                )
                assert made.status_code == 201

            # an admin reverts a decision; a reviewer may not
            calm = next(b for b in blocks if b["verdict"] != "review")
            extra = reviewer.post(
                f"/v1/jobs/{job_id}/reviews",
                json={"page": 1, "block": calm["block"], "action": "unreadable"},
            ).json()
            assert reviewer.delete(f"/v1/jobs/{job_id}/reviews/{extra['id']}").status_code == 403
            assert admin.delete(f"/v1/jobs/{job_id}/reviews/{extra['id']}").status_code == 200
            markdown = reader.get(f"/v1/jobs/{job_id}/document.md").text
            assert RIGHT in markdown and WRONG not in markdown and "[unclear]" not in markdown
            chunks = reader.get(f"/v1/jobs/{job_id}/chunks").json()["chunks"]
            text = "\n".join(chunk["text"] for chunk in chunks)  # cut anew from the correction
            assert RIGHT in text and WRONG not in text
            for chunk in chunks:
                assert chunk["text"][:6] in markdown[chunk["md_start"] : chunk["md_end"]]

        # a restart on the same folder: decisions, trail and outputs survive
        with review_service(data, vlm) as url:
            reader = client(url, "reader")
            markdown = reader.get(f"/v1/jobs/{job_id}/document.md").text
            assert RIGHT in markdown and WRONG not in markdown
            document = reader.get(f"/v1/jobs/{job_id}/document.json").json()
            corrected = next(
                b
                for p in document["pages"]
                for b in p["blocks"]
                if b["block"]["order"] == misread["block"]
            )
            assert corrected["text"] == fixed and corrected["original"] == misread["answer"]
            assert (
                corrected["corrected_by"] == "rita" and corrected["verdict"]["outcome"] == "review"
            )
            trail = reader.get(f"/v1/jobs/{job_id}/reviews").json()["reviews"]
            assert [r["action"] for r in trail] == [
                "edit",
                *(["edit"] * len(others) or ["approve"]),
                "unreadable",
                "revert",
            ]
            assert all(r["at"] and r["who"] for r in trail)

            archive = zipfile.ZipFile(io.BytesIO(reader.get("/v1/evalset").content))
            manifest = [
                json.loads(line)
                for line in archive.read("evalset/manifest.jsonl").decode().splitlines()
            ]
            assert len(manifest) == 1 and manifest[0]["page"] == 1
            reference = archive.read(f"evalset/{manifest[0]['reference']}").decode()
            assert RIGHT in reference and WRONG not in reference
            assert char_consistency(normalize(reference), normalize(truth)) >= 0.95

            out = tmp_path / "evalset"
            runner = CliRunner()
            done = runner.invoke(app, ["export-evalset", "--data-dir", str(data), str(out)])
            assert done.exit_code == 0, done.output
            lines = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
            assert lines == manifest
            assert (out / lines[0]["file"]).read_bytes() == fixtures.scan_png.read_bytes()
            report_dir = tmp_path / "report"
            done = runner.invoke(
                app, ["eval", str(out), "--engines", "embedded", "-o", str(report_dir)]
            )
            assert done.exit_code == 0, done.output
            rows = json.loads((report_dir / "report.json").read_text())["rows"]
            assert (
                len(rows) == 1 and rows[0]["char_consistency"] >= 0.95 and rows[0]["critical_ok"]
            ), rows

            admin = client(url, "admin")
            assert client(url, "reviewer").delete(f"/v1/jobs/{job_id}").status_code == 403
            assert admin.delete(f"/v1/jobs/{job_id}").status_code == 200
            assert reader.get(f"/v1/jobs/{job_id}/reviews").status_code == 404
            kept = ReviewStore(data / "reviews.sqlite").trail(job_id)  # the trail outlives it
            assert len(kept) == len(trail)
            assert _metrics(reader)[("pagereader_review_queue_blocks", ())] == 0


def test_a_correction_is_cleaned_as_engine_text_is(tmp_path: Path) -> None:
    """A correction holding a NUL, an ANSI colour escape and an unpaired U+202E reaches
    document.md and chunks.jsonl without those code points and with its visible text; the
    trail keeps what the reviewer sent, and the page's warnings say what was removed."""
    data = tmp_path / "data"
    sent = "Throughput\x00 rose \x1b[31mto 43,000\x1b[0m pages \u202ea day"
    shown = "Throughput rose [31mto 43,000[0m pages a day"
    hidden = {"\x00", "\x1b", "\u202e"}
    with serve_in_thread(create_app(data, Options(), tokens=token_store())) as url:
        reviewer = client(url.removesuffix("/v1"), "reviewer")
        upload = {"file": ("deck.pdf", DECK.read_bytes(), "application/pdf")}
        job_id = reviewer.post("/v1/documents", files=upload).json()["id"]
        assert wait_finished(reviewer, job_id)["status"] == "ok"
        blocks = reviewer.get(f"/v1/jobs/{job_id}/blocks").json()["blocks"]
        target = _block(blocks, "Document throughput rose 18%")
        decision = {"page": target["page"], "block": target["block"], "action": "edit"}
        answer = reviewer.post(f"/v1/jobs/{job_id}/reviews", json={**decision, "text": sent})
        assert answer.status_code == 201, answer.text
        assert answer.json()["text"] == sent
        listed = reviewer.get(f"/v1/jobs/{job_id}/blocks").json()["blocks"]
        assert [b["text"] for b in listed if b["answer"] == target["answer"]] == [shown]
    folder = data / "jobs" / job_id
    markdown = (folder / "document.md").read_text(encoding="utf-8")
    chunks = read_chunks_jsonl((folder / "chunks.jsonl").read_text(encoding="utf-8"))
    for text in (markdown, "\n".join(chunk.text for chunk in chunks)):
        assert shown in text and "Document throughput rose 18%" not in text
        assert not hidden & set(text), sorted(hidden & set(text))
    page = json.loads((folder / "document.json").read_text(encoding="utf-8"))["pages"][0]
    assert any("U+0000, U+001B, U+202E" in warning for warning in page["warnings"])
