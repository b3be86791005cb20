"""Options and config files: validated, with errors that name the file and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagereader.config.file import load_config
from pagereader.config.options import OpenAIEngineOptions, Options
from pagereader.errors import ConfigError

CONFIG = """
[engines.parser]
kind = "openai"
base_url = "http://127.0.0.1:8000/v1"
model = "PaddlePaddle/PaddleOCR-VL"
prompt_style = "paddleocr-vl"
max_concurrency = 64
timeout_s = 60
retries = 2

[routes]
"scan.text" = ["parser", "rapidocr"]
"*.table" = ["parser", "rapidocr"]

[budget]
page_deadline_s = 5.0
"""


def test_config_file_loads_and_merges_routes(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(CONFIG)
    options = load_config(path)
    engine = options.engines["parser"]
    assert isinstance(engine, OpenAIEngineOptions)
    assert engine.max_concurrency == 64
    assert options.routes["scan.text"] == ("parser", "rapidocr")
    assert options.routes["digital.*"] == ("textlayer", "ocr")
    assert options.budget.page_deadline_s == 5.0


def test_unknown_engine_in_route_is_refused(tmp_path: Path) -> None:
    """The engine registry knows the engine names: a run's engines are built before any page
    is read, and a route naming none of them stops it there."""
    from pagereader.pipeline import make_context

    path = tmp_path / "bad.toml"
    path.write_text('[routes]\n"scan.text" = ["nope"]\n')
    options = load_config(path)
    with pytest.raises(ConfigError) as info:
        make_context(options)
    assert str(info.value).startswith("route 'scan.text' names unknown engines ['nope']")


def test_bad_route_key_and_range_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[routes]\n"paper.text" = ["ocr"]\n')
    with pytest.raises(ConfigError, match=r"page_class\.block_kind"):
        load_config(path)
    path.write_text("[render]\ndpi = 5\n")
    with pytest.raises(ConfigError, match=r"render\.dpi"):
        load_config(path)


def test_not_toml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text("[engines\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path)


def test_defaults_run_embedded_engines() -> None:
    options = Options()
    assert options.engines == {}
    assert options.render.dpi == 200


def test_typos_in_task_and_language_keys_are_config_errors(tmp_path: Path) -> None:
    """Keys of per-task and per-language tables are checked like every other key."""
    from pagereader.config.settings import resolve_options

    for body, field in (
        (
            '[engines.vlm]\nkind = "openai"\nbase_url = "http://x/v1"\nmodel = "m"\n'
            "max_tokens = { tabel = 2048 }\n",
            "tabel",
        ),
        (
            '[engines.vlm]\nkind = "openai"\nbase_url = "http://x/v1"\nmodel = "m"\n'
            'prompts = { figre = "Describe." }\n',
            "figre",
        ),
        ('[verify]\ncritical_patterns = { "zh-TW" = ["第.條"] }\n', "zh-TW"),
    ):
        config = tmp_path / "pagereader.toml"
        config.write_text(body, encoding="utf-8")
        with pytest.raises(ConfigError, match=field):
            resolve_options(config)


def test_chunk_settings_come_from_the_config(tmp_path: Path) -> None:
    path = tmp_path / "chunks.toml"
    path.write_text('[output]\nchunk_tokens = 256\nchunk_tokenizer = "cl100k_base"\n')
    output = load_config(path).output
    assert (output.chunk_tokens, output.chunk_tokenizer) == (256, "cl100k_base")
    assert Options().output.chunk_tokens == 512
    for bad in ("chunk_tokens = 4", 'chunk_tokenizer = "gpt2"'):
        path.write_text(f"[output]\n{bad}\n")
        with pytest.raises(ConfigError, match=bad.split(" ")[0]):
            load_config(path)


def test_the_pixel_defaults_are_one_pair_of_numbers() -> None:
    """What a request carries by default, what serve-engine assumes for a request that names
    no bounds, and what the planner sizes a request for are the same numbers (they were
    written out three times)."""
    from pagereader.engine_server.requests import PixelBounds
    from pagereader.planner.memory import REQUEST_MAX_PIXELS, REQUEST_MIN_PIXELS

    options = Options()
    served = PixelBounds()
    assert (options.classify.min_pixels, options.classify.normal_max_pixels) == (
        served.min_pixels,
        served.max_pixels,
    )
    assert (served.min_pixels, served.max_pixels) == (REQUEST_MIN_PIXELS, REQUEST_MAX_PIXELS)
    assert options.context.max_pixels == served.max_pixels
