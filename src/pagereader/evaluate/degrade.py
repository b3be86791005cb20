"""Make a clean page render look scanned: bleed-through, skew, blur, noise and JPEG artefacts.

The three levels span what OCR meets in practice; `medium` is the 200-DPI office scan the
acceptance figures are measured on (blur, noise, a 1-degree skew, JPEG).
"""

from __future__ import annotations

import logging
import zlib
from pathlib import Path
from typing import Literal

import cv2
import numpy as np
import pypdfium2 as pdfium
from PIL import Image
from pydantic import BaseModel, ConfigDict, Field

logger = logging.getLogger(__name__)

LevelName = Literal["light", "medium", "heavy"]
SCAN_DPI = 200


class Degradation(BaseModel):
    """How hard a page is degraded; every field is one physical effect of a scan."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    blur_sigma: float = Field(ge=0.0)
    noise_sigma: float = Field(ge=0.0)
    skew_deg: float
    jpeg_quality: int = Field(ge=1, le=100)
    bleed_alpha: float = Field(default=0.0, ge=0.0, le=1.0)


LEVELS: dict[LevelName, Degradation] = {
    "light": Degradation(
        name="light", blur_sigma=0.5, noise_sigma=3.0, skew_deg=0.4, jpeg_quality=85
    ),
    "medium": Degradation(
        name="medium",
        blur_sigma=0.9,
        noise_sigma=8.0,
        skew_deg=1.0,
        jpeg_quality=60,
        bleed_alpha=0.06,
    ),
    "heavy": Degradation(
        name="heavy",
        blur_sigma=1.5,
        noise_sigma=16.0,
        skew_deg=1.8,
        jpeg_quality=35,
        bleed_alpha=0.15,
    ),
}


def _bleed(page: np.ndarray, back: np.ndarray, alpha: float) -> np.ndarray:
    """Show the mirrored back page faintly through the paper, as thin paper does."""
    mirrored = cv2.resize(back, (page.shape[1], page.shape[0]))[:, ::-1]
    ghost = 255.0 - alpha * (255.0 - mirrored.astype(np.float32))
    bled: np.ndarray = np.minimum(page.astype(np.float32), ghost)
    return bled


def _rotate(page: np.ndarray, degrees: float) -> np.ndarray:
    """Skew the page about its centre, filling the uncovered corners with paper white."""
    height, width = page.shape[:2]
    matrix = cv2.getRotationMatrix2D((width / 2.0, height / 2.0), degrees, 1.0)
    return cv2.warpAffine(
        page,
        matrix,
        (width, height),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=255.0,
    )


def _jpeg(page: np.ndarray, quality: int) -> np.ndarray:
    """Round-trip through JPEG so that the blocks and ringing of a real scan are there."""
    ok, buf = cv2.imencode(".jpg", page, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError(f"JPEG encoding failed at quality {quality}")
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE), dtype=np.uint8)


def degrade(
    image: Image.Image,
    level: Degradation,
    *,
    seed: int,
    back: Image.Image | None = None,
) -> Image.Image:
    """A grayscale scan of ``image``; ``back`` is the page printed on the other side."""
    page: np.ndarray = np.asarray(image.convert("L"), dtype=np.float32)
    if back is not None and level.bleed_alpha > 0:
        page = _bleed(page, np.asarray(back.convert("L"), dtype=np.float32), level.bleed_alpha)
    if level.skew_deg:
        page = _rotate(page, level.skew_deg)
    if level.blur_sigma > 0:
        page = cv2.GaussianBlur(page, (0, 0), level.blur_sigma)
    if level.noise_sigma > 0:
        rng = np.random.default_rng(seed)
        page = page + rng.standard_normal(page.shape, dtype=np.float32) * level.noise_sigma
    out = np.clip(page, 0, 255).astype(np.uint8)
    out = _jpeg(out, level.jpeg_quality)
    logger.debug("degraded %dx%d page at level %s", out.shape[1], out.shape[0], level.name)
    return Image.fromarray(out)


def psnr(reference: Image.Image, degraded: Image.Image, skew_deg: float = 0.0) -> float:
    """Peak signal-to-noise ratio in dB of a scan against its clean render.

    The clean render is first skewed by ``skew_deg`` so that the figure measures the damage
    to the pixels, not the misalignment of the page.
    """
    a = np.asarray(reference.convert("L"), dtype=np.float32)
    if skew_deg:
        a = _rotate(a, skew_deg)
    b = np.asarray(degraded.convert("L").resize(reference.size), dtype=np.float32)
    mse = float(np.mean((a.astype(np.float64) - b) ** 2))
    if mse == 0:
        return float("inf")
    return 10.0 * float(np.log10(255.0**2 / mse))


def render_pages(pdf_path: Path, dpi: int = SCAN_DPI) -> list[Image.Image]:
    """Every page of a PDF rendered in grayscale at ``dpi``."""
    document = pdfium.PdfDocument(pdf_path)
    try:
        return [page.render(scale=dpi / 72, grayscale=True).to_pil() for page in document]
    finally:
        document.close()


def scan_seed(name: str, page: int, level: str) -> int:
    """A stable seed per file, page and level, so that every run makes the same noise."""
    return zlib.crc32(f"{name}:{page}:{level}".encode())


def write_scans(
    pdf_path: Path,
    out_pdf: Path | None,
    level: LevelName,
    *,
    png_stem: Path | None = None,
    dpi: int = SCAN_DPI,
) -> list[Path]:
    """Degrade each page (the next page bleeds through), save an image-only PDF and/or PNGs.

    PNG names are ``<png_stem>.pN.png``, or ``<png_stem>.png`` for a one-page document.
    """
    clean = render_pages(pdf_path, dpi)
    scans = [
        degrade(
            image,
            LEVELS[level],
            seed=scan_seed(pdf_path.name, i + 1, level),
            back=clean[(i + 1) % len(clean)] if len(clean) > 1 else None,
        )
        for i, image in enumerate(clean)
    ]
    written: list[Path] = []
    if out_pdf is not None:
        scans[0].save(
            out_pdf, "PDF", resolution=float(dpi), save_all=True, append_images=scans[1:],
            quality=95,
        )  # fmt: skip
        written.append(out_pdf)
    if png_stem is not None:
        for i, scan in enumerate(scans, start=1):
            suffix = f".p{i}.png" if len(scans) > 1 else ".png"
            target = png_stem.with_name(png_stem.name + suffix)
            scan.save(target, "PNG", optimize=False, dpi=(dpi, dpi))
            written.append(target)
    return written
