"""One pixel budget for every raster: pages over it render at the largest scale that fits and
say so in the JSON, image files over it are refused from their header, Pillow's own bomb guard
follows it, and it is reachable from the config file and the environment."""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from adversarial.raster_inputs import write_big_pdf, write_big_png
from pagereader.config.file import options_from_mapping
from pagereader.config.options import Options
from pagereader.config.settings import ENV_MAX_IMAGE_PIXELS, resolve_options
from pagereader.errors import ConfigError, ImageTooLargeError
from pagereader.pipeline import parse
from pagereader.sources import open_bounded_image, open_source
from pagereader.sources.limits import fit_scale


@pytest.fixture(autouse=True)
def _restore_pillow_limit() -> Iterator[None]:
    """Opening a source sets Pillow's process-wide limit; later tests get theirs back."""
    before = Image.MAX_IMAGE_PIXELS
    yield
    Image.MAX_IMAGE_PIXELS = before


@pytest.mark.parametrize("side_pt", [5000.0, 14400.0])
def test_a_huge_pdf_page_renders_at_the_largest_scale_within_the_budget(
    tmp_path: Path, side_pt: float
) -> None:
    budget = 4_000_000
    pdf = write_big_pdf(tmp_path / "poster.pdf", side_pt)
    assert pdf.stat().st_size < 4000
    source = open_source(pdf, password=None, max_image_pixels=budget)
    page = source.render(1, 200)
    source.close()
    width, height = page.image.size
    assert width * height <= budget
    # the largest square within the budget is isqrt(budget) a side; rounding may cost a pixel
    assert width == height and math.isqrt(budget) - 2 <= width <= math.isqrt(budget)
    assert page.scale == pytest.approx(width / side_pt, rel=1e-3)
    (note,) = page.render_notes
    assert "render.max_image_pixels" in note and f"{round(page.scale * 72)} DPI" in note


def test_the_note_reaches_the_page_decision_in_the_json(tmp_path: Path) -> None:
    pdf = write_big_pdf(tmp_path / "poster.pdf", 5000.0)
    options = Options.model_validate({"render": {"max_image_pixels": 2_000_000}})
    result = parse(pdf, options)
    assert result.status == "ok", result.errors
    (page,) = result.pages
    assert page.decision is not None
    notes = [r for r in page.decision.reasons if "render.max_image_pixels" in r]
    assert len(notes) == 1 and "instead of 200" in notes[0]
    assert "Quarterly poster" in result.markdown


def test_a_pdf_page_within_the_budget_is_untouched(tmp_path: Path) -> None:
    pdf = write_big_pdf(tmp_path / "letter.pdf", 600.0)
    source = open_source(pdf, password=None, max_image_pixels=100_000_000)
    page = source.render(1, 144)
    source.close()
    assert page.image.size == (1600, 1600)  # 600 pt at 144 DPI is 1200 px, raised to 1600
    assert page.render_notes == ()


def test_a_low_dpi_image_is_enlarged_only_up_to_the_budget(tmp_path: Path) -> None:
    png = write_big_png(tmp_path / "scan.png", 3000, 50)
    budget = 20_000_000
    source = open_source(png, password=None, max_image_pixels=budget)
    page = source.render(1, 200)
    source.close()
    width, height = page.image.size
    assert page.image.mode == "RGB"
    assert width * height <= budget
    # 50 DPI asks for 3x (9000 px a side, 81 M pixels); the budget allows isqrt(20 M) a side
    assert math.isqrt(budget) - 2 <= width <= math.isqrt(budget)
    assert page.scale == pytest.approx(width / 3000, rel=1e-3)
    assert page.width == 3000 and page.units_per_inch == pytest.approx(50, abs=0.1)
    (note,) = page.render_notes
    assert "instead of 3.00x" in note


def test_an_image_over_the_budget_is_refused_with_the_real_config_key(tmp_path: Path) -> None:
    png = write_big_png(tmp_path / "big.png", 3000, 300)
    with pytest.raises(ImageTooLargeError) as caught:
        open_source(png, password=None, max_image_pixels=8_000_000)
    error = caught.value
    assert "3000x3000 = 9,000,000 pixels" in error.message
    keys = set(re.findall(r"\b([a-z_]+)\.([a-z_]+)\b", error.hint))
    assert keys, error.hint
    for section, field in keys:
        loaded = options_from_mapping({section: {field: 123_456_789}})
        assert getattr(getattr(loaded, section), field) == 123_456_789
    assert "PAGEREADER_MAX_IMAGE_PIXELS" in error.hint
    with pytest.raises(ConfigError):
        options_from_mapping({"limits": {"max_image_pixels": 123_456_789}})


def test_a_budget_above_pillows_default_is_honoured(tmp_path: Path) -> None:
    png = write_big_png(tmp_path / "big.png", 10_000, 300)  # 100 M pixels: Pillow's default warns
    budget = 150_000_000
    assert Image.MAX_IMAGE_PIXELS is not None and Image.MAX_IMAGE_PIXELS < 100_000_000
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        source = open_source(png, password=None, max_image_pixels=budget)
    assert source.page_count == 1
    assert budget == Image.MAX_IMAGE_PIXELS
    source.close()


def test_a_tiff_frame_over_the_budget_fails_alone(tmp_path: Path) -> None:
    small = Image.new("L", (400, 300), 255)
    large = Image.new("1", (3000, 3000), 1)
    tiff = tmp_path / "pages.tif"
    small.save(tiff, save_all=True, append_images=[large], dpi=(300, 300))
    source = open_source(tiff, password=None, max_image_pixels=4_000_000)
    assert source.page_count == 2
    assert source.render(1, 200).image.size == (400, 300)
    with pytest.raises(ImageTooLargeError) as caught:
        source.render(2, 200)
    source.close()
    assert caught.value.page == 2 and "3000x3000" in caught.value.message


def test_open_bounded_image_checks_the_header_before_decoding(tmp_path: Path) -> None:
    data = write_big_png(tmp_path / "huge.png", 13_000, 300).read_bytes()
    assert len(data) < 300_000
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # refused by pagereader's check, without Pillow's warning
        with pytest.raises(ImageTooLargeError, match="13000x13000 = 169,000,000"):
            open_bounded_image(data, 100_000_000)
    small = write_big_png(tmp_path / "small.png", 500, 300, color=True).read_bytes()
    image = open_bounded_image(small, 100_000_000)
    assert image.size == (500, 500) and image.getpixel((0, 0)) == (255, 255, 255)


def test_the_budget_comes_from_the_environment_unless_the_config_sets_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PAGEREADER_CONFIG", raising=False)
    monkeypatch.delenv("PAGEREADER_DPI", raising=False)
    monkeypatch.setenv(ENV_MAX_IMAGE_PIXELS, "150_000_000")
    assert resolve_options().render.max_image_pixels == 150_000_000
    config = tmp_path / "config.toml"
    config.write_text("[render]\nmax_image_pixels = 50000000\n", encoding="utf-8")
    assert resolve_options(config).render.max_image_pixels == 50_000_000
    config.write_text("[render]\ndpi = 150\n", encoding="utf-8")
    assert resolve_options(config).render.max_image_pixels == 150_000_000
    monkeypatch.setenv(ENV_MAX_IMAGE_PIXELS, "lots")
    with pytest.raises(ConfigError, match=ENV_MAX_IMAGE_PIXELS):
        resolve_options()


@settings(max_examples=300, deadline=None, database=None)
@given(
    width=st.floats(0.5, 20_000),
    height=st.floats(0.5, 20_000),
    scale=st.floats(0.01, 10),
    budget=st.integers(1_000, 200_000_000),
)
def test_fit_scale_is_the_largest_scale_that_fits(
    width: float, height: float, scale: float, budget: int
) -> None:
    def pixels(s: float) -> int:
        return math.ceil(width * s) * math.ceil(height * s)

    fitted = fit_scale(width, height, scale, budget)
    assert 0 < fitted <= scale
    if pixels(scale) <= budget:
        assert fitted == scale
    else:
        assert pixels(fitted) <= budget < pixels(fitted * 1.0001)
