"""A reviewer's crop is the clean page, framed: the pixels inside the frame are the page as
rendered afresh from the upload, where the overlay has the block's tag over its first
characters."""

from __future__ import annotations

import io
import time
from pathlib import Path

import httpx
import numpy as np
from PIL import Image

from pagereader.config.options import Options
from pagereader.engine_server.server import serve_in_thread
from pagereader.service.app import create_app
from pagereader.service.reviews.crops import CROP_MARGIN
from pagereader.sources import InflateLimits, open_source

DECK = Path(__file__).parents[2] / "examples" / "deck.pdf"


def test_a_crop_is_the_clean_page_inside_a_frame(tmp_path: Path) -> None:
    options = Options()
    with serve_in_thread(create_app(tmp_path, options)) as url:
        client = httpx.Client(base_url=url.removesuffix("/v1"), timeout=60)
        files = {"file": ("deck.pdf", DECK.read_bytes(), "application/pdf")}
        job_id = client.post("/v1/documents", files=files).json()["id"]
        deadline = time.monotonic() + 120
        while client.get(f"/v1/jobs/{job_id}").json()["status"] in ("queued", "running"):
            assert time.monotonic() < deadline
            time.sleep(0.2)
        document = client.get(f"/v1/jobs/{job_id}/document.json").json()
        block = document["pages"][0]["blocks"][0]["block"]
        answer = client.get(f"/v1/jobs/{job_id}/pages/1/blocks/{block['order']}.png")
        assert answer.status_code == 200 and answer.headers["content-type"] == "image/png"
        missing = client.get(f"/v1/jobs/{job_id}/pages/1/blocks/999.png")
        assert missing.status_code == 404
        overlay = Image.open(io.BytesIO(client.get(f"/v1/jobs/{job_id}/pages/1.png").content))
        client.close()
    crop = np.asarray(Image.open(io.BytesIO(answer.content)).convert("RGB"))
    limits = InflateLimits.from_mb(256, 2048)
    source = open_source(DECK, password=None, max_image_pixels=64_000_000, inflate_limits=limits)
    page = source.render(1, options.render.dpi)
    source.close()
    x0, y0 = (max(0, int(v * page.scale) - CROP_MARGIN) for v in block["bbox"][:2])
    inner = crop[2:-2, 2:-2]
    clean = np.asarray(page.image.convert("RGB"))[
        y0 : y0 + inner.shape[0], x0 : x0 + inner.shape[1]
    ]
    assert inner.shape == clean.shape and np.array_equal(inner, clean)
    assert (crop[0, :] == (220, 38, 38)).all() and (crop[:, -1] == (220, 38, 38)).all()
    drawn = np.asarray(overlay.convert("RGB"))[y0 : y0 + inner.shape[0], x0 : x0 + inner.shape[1]]
    assert not np.array_equal(drawn, clean)  # the overlay's own tag and outline are in there
