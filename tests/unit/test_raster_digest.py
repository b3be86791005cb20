"""The repeated-page digest hashes a page band by band; it must equal the digest of the whole
raster at once (so pages cached by earlier versions still match) and tell pages apart."""

from __future__ import annotations

import hashlib

from PIL import Image

from pagereader.reuse.digest import raster_digest
from pagereader.sources.base import RenderedPage


def _page(image: Image.Image) -> RenderedPage:
    return RenderedPage(
        file="x.pdf",
        index=1,
        width=float(image.width),
        height=float(image.height),
        scale=1.0,
        image=image,
    )


def test_digest_equals_the_whole_raster_digest() -> None:
    image = Image.effect_noise((613, 1037), 60).convert("RGB")
    whole = hashlib.sha256(f"{image.size}{image.mode}".encode())
    whole.update(image.tobytes())
    assert raster_digest(_page(image)) == whole.hexdigest()


def test_one_changed_pixel_in_the_last_band_changes_the_digest() -> None:
    image = Image.new("RGB", (300, 700), "white")
    changed = image.copy()
    changed.putpixel((299, 699), (0, 0, 0))
    assert raster_digest(_page(image)) != raster_digest(_page(changed))
