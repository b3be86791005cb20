"""The review workspace in a real headless Chromium (Debian's ``chromium``, driven by
Playwright): log in, upload a scan, watch it finish, fix the flagged block with the keyboard,
download document.md, look at the document view, and open a page whose text is a script tag.

``PAGEREADER_UI_SCREENSHOTS=DIR`` also writes the docs' screenshots (docs/ui-*.png, small palette
PNGs)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import Dialog, Page, sync_playwright
from reportlab.pdfgen import canvas

from fixtures import Fixtures
from review_service import MISREAD, TOKENS, client, review_service, vlm_server
from service_process import wait_finished

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SCRIPT = "<script>alert(1)</script>"
RIGHT, WRONG = MISREAD


def _script_pdf(path: Path) -> Path:
    """A digital page whose text layer holds a script tag."""
    page = canvas.Canvas(str(path), pagesize=(595, 842))
    page.setFont("Helvetica", 14)
    page.drawString(72, 760, "Minutes of the meeting")
    page.drawString(72, 720, f"The attachment said {SCRIPT} and nothing else.")
    page.save()
    return path


def _non_blank(path: Path) -> None:
    pixels = np.asarray(Image.open(path).convert("L"), dtype=np.float32)
    assert pixels.std() > 20, f"{path} looks blank (std {pixels.std():.1f})"
    assert len(np.unique(pixels)) > 50


def _keep(page: Page, name: str) -> None:
    """Save a small palette PNG of the page for the docs when asked to."""
    folder = os.environ.get("PAGEREADER_UI_SCREENSHOTS")
    if not folder:
        return
    target = Path(folder) / name
    target.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(target))
    image = Image.open(target).convert("RGB")
    small = image.resize((image.width * 3 // 4, image.height * 3 // 4), Image.Resampling.LANCZOS)
    small.quantize(96, method=Image.Quantize.FASTOCTREE).save(target, optimize=True)


def test_review_in_the_browser(tmp_path: Path, fixtures: Fixtures) -> None:
    assert Path(CHROMIUM).is_file(), "install Debian's chromium (apt-get install -y chromium)"
    data = tmp_path / "data"
    with (
        vlm_server() as vlm,
        review_service(data, vlm) as url,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = browser.new_page(viewport={"width": 1280, "height": 860}, accept_downloads=True)
        dialogs: list[str] = []

        def on_dialog(dialog: Dialog) -> None:
            dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", on_dialog)
        page.goto(f"{url}/ui/")
        assert page.url == f"{url}/ui/login"
        page.fill("#token", TOKENS["reviewer"][1])
        page.click("#login")
        page.wait_for_url(f"{url}/ui/")

        page.set_input_files("#file", str(fixtures.scan_png))
        page.click("#send")
        row = page.locator("tr.job").first
        job_id = row.get_attribute("data-job")
        assert job_id and row.get_attribute("data-status") in ("queued", "running")
        page.wait_for_selector('tr.job[data-status="ok"]', timeout=300_000)  # polled, then reloaded
        _keep(page, "ui-jobs.png")

        page.click("a.review-link")
        page.wait_for_selector(".item.current")
        assert page.locator(".queue > .item").first.get_attribute("data-verdict") == "review"
        for _ in range(page.locator(".queue > .item").count()):
            if WRONG in page.locator(".item.current pre.answer").inner_text():
                break
            page.keyboard.press("j")
        current = page.locator(".item.current")
        answer = current.locator("pre.answer").inner_text()
        assert WRONG in answer and "shall->may" in current.locator(".findings").inner_text()
        item_id = current.get_attribute("id")
        crop = current.locator("img.crop")
        crop.scroll_into_view_if_needed()
        page.wait_for_function(
            "(img) => img.complete && img.naturalWidth > 0", arg=crop.element_handle()
        )
        box = crop.bounding_box()
        assert box and box["width"] > 100 and box["height"] > 10  # the block cut from the page
        _keep(page, "ui-review.png")
        page.keyboard.press("e")
        assert page.evaluate("document.activeElement.tagName") == "TEXTAREA"
        page.keyboard.insert_text(answer.replace(WRONG, RIGHT))
        with page.expect_navigation():
            page.keyboard.press("Control+Enter")
        decided = page.locator(f"#{item_id}")
        assert decided.get_attribute("data-decided") == "1"
        assert "edit by rita" in decided.locator(".decision").inner_text()

        page.goto(f"{url}/ui/jobs/{job_id}")
        page.wait_for_function("document.querySelector('.picture img').naturalWidth > 0")
        key = item_id.removeprefix("b-")  # type: ignore[union-attr]
        page.click(f'g.outline[data-key="{key}"] rect')
        assert "selected" in (
            page.locator(f'.text-block[data-key="{key}"]').get_attribute("class") or ""
        )
        assert "decided" in (
            page.locator(f'g.outline[data-key="{key}"]').get_attribute("class") or ""
        )
        shot = tmp_path / "document.png"
        page.screenshot(path=str(shot), full_page=True)
        _non_blank(shot)
        _keep(page, "ui-document.png")
        with page.expect_download() as download:
            page.click("#download-md")
        markdown = Path(download.value.path()).read_text(encoding="utf-8")
        assert RIGHT in markdown and WRONG not in markdown

        reviewer = client(url, "reviewer")
        pdf = _script_pdf(tmp_path / "minutes.pdf")
        script_id = reviewer.post(
            "/v1/documents", files={"file": ("minutes.pdf", pdf.read_bytes())}
        ).json()["id"]
        finished = wait_finished(reviewer, script_id)
        assert finished["status"] == "ok", finished
        for view in (f"/ui/jobs/{script_id}", f"/ui/jobs/{script_id}/review"):
            page.goto(f"{url}{view}")
            page.wait_for_load_state("load")
            assert SCRIPT in page.locator("main").inner_text()
            assert page.locator("main script").count() == 0
        assert dialogs == []
        browser.close()
