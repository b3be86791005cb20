"""What the layout and recognize stages hand the embedded OCR: the detection size for a scan,
and a figure's crop with the text layer's lines painted out."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from pagereader.config.options import RapidOCREngineOptions
from pagereader.sources.base import RenderedPage
from pagereader.stages.detection_size import detection_options
from pagereader.stages.recognize import block_image
from pagereader.stages.state import PageState
from pagereader.types import Block, TextLine

DEFAULT = RapidOCREngineOptions().det_limit_side_len


def scan(width_pt: float, height_pt: float, dpi: float) -> RenderedPage:
    scale = dpi / 72
    image = Image.new("RGB", (int(width_pt * scale), int(height_pt * scale)), "white")
    return RenderedPage(
        file="x.pdf", index=1, width=width_pt, height=height_pt, scale=scale, image=image
    )


def test_a4_print_is_detected_finer_than_slide_type() -> None:
    # body text in pixels at the default size: 12 pt on A4 at 200 DPI is about 14 px
    a4 = detection_options(scan(595, 842, 200), 12).det_limit_side_len
    slide = detection_options(scan(960, 540, 200), 24).det_limit_side_len
    assert slide == DEFAULT
    assert a4 > DEFAULT
    # at the chosen size, 12 pt body text keeps 18 px (the raster's long side is 842 pt)
    assert 18 <= 12 * a4 / 842 < 20
    small_raster = detection_options(scan(595, 842, 80), 12).det_limit_side_len
    assert small_raster == DEFAULT  # the raster already fits the default size
    assert detection_options(scan(595, 842, 200), 0).det_limit_side_len == DEFAULT  # unknown


def digital_figure(text_over: bool) -> tuple[PageState, Block]:
    """A 400x300 pt page at 2 px/pt: a mid-grey picture with a white text bar drawn over it."""
    image = Image.new("RGB", (800, 600), (128, 128, 128))
    draw = ImageDraw.Draw(image)
    draw.rectangle((120, 180, 680, 220), fill=(255, 255, 255))  # the drawn text's ink
    draw.rectangle((120, 400, 300, 440), fill=(0, 0, 0))  # ink in the picture itself
    lines = (TextLine(text="Revenue grew", bbox=(60, 90, 340, 110)),) if text_over else ()
    page = RenderedPage(
        file="x.pdf", index=1, width=400, height=300, scale=2, image=image, lines=lines
    )
    state = PageState(rendered=page, trusted_text=True)
    return state, Block(kind="figure", bbox=(20, 20, 380, 280), source="pdf-image")


def test_text_layer_lines_are_painted_out_of_a_figure() -> None:
    state, figure = digital_figure(text_over=True)
    box = (40, 40, 760, 560)
    crop = np.asarray(block_image(state, figure, box))
    # the text bar (page 120..680 x 180..220 px) is now the picture's grey
    assert (crop[180 - 40 : 220 - 40, 120 - 40 : 680 - 40] == 128).all()
    # the picture's own ink is untouched
    assert (crop[400 - 40 : 440 - 40, 120 - 40 : 300 - 40] == 0).all()


def test_without_a_text_layer_the_crop_is_the_raster() -> None:
    state, figure = digital_figure(text_over=False)
    box = (40, 40, 760, 560)
    crop = np.asarray(block_image(state, figure, box))
    assert (crop == np.asarray(state.rendered.image.crop(box))).all()
    text_state, _ = digital_figure(text_over=True)
    paragraph = Block(kind="text", bbox=(60, 90, 340, 110))
    text_crop = np.asarray(block_image(text_state, paragraph, box))
    assert (text_crop[180 - 40 : 220 - 40, 120 - 40 : 680 - 40] == 255).all()
