"""The only reader of PAGEREADER_* environment variables and of the TOML config file.

Precedence: explicit arguments (CLI flags) > config file > environment > defaults.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import ValidationError

from pagereader.errors import ConfigError
from pagereader.options import Options, load_config

ENV_CONFIG = "PAGEREADER_CONFIG"
ENV_DPI = "PAGEREADER_DPI"
ENV_TESSERACT = "PAGEREADER_TESSERACT"
ENV_SOFFICE = "PAGEREADER_SOFFICE"
ENV_MAX_IMAGE_PIXELS = "PAGEREADER_MAX_IMAGE_PIXELS"


def resolve_options(config: str | Path | None = None) -> Options:
    """Options from the config file (argument or PAGEREADER_CONFIG) and environment."""
    path = config or os.environ.get(ENV_CONFIG)
    options = load_config(path) if path else Options()
    budget_configured = "max_image_pixels" in options.render.model_fields_set
    dpi = os.environ.get(ENV_DPI)
    if dpi and not config:
        data = options.model_dump()
        data["render"]["dpi"] = int(dpi)
        options = Options.model_validate(data)
    return options if budget_configured else _env_pixel_budget(options)


def _env_pixel_budget(options: Options) -> Options:
    """The pixel budget from PAGEREADER_MAX_IMAGE_PIXELS (a config file's value wins)."""
    raw = os.environ.get(ENV_MAX_IMAGE_PIXELS, "").strip().replace("_", "")
    if not raw:
        return options
    data = options.model_dump()
    try:
        data["render"]["max_image_pixels"] = int(raw)
        return Options.model_validate(data)
    except (ValueError, ValidationError) as exc:
        raise ConfigError(
            f"{ENV_MAX_IMAGE_PIXELS}={raw!r} is not a pixel count of at least 1,000,000",
            hint="set it to a whole number such as 64000000, or unset it",
        ) from exc


def tesseract_binary(default: str = "tesseract") -> str:
    """Which tesseract executable to run."""
    return os.environ.get(ENV_TESSERACT, default)


def soffice_binary() -> str | None:
    """An explicit LibreOffice executable, if the environment names one."""
    return os.environ.get(ENV_SOFFICE)
