"""The only reader of PAGEREADER_* environment variables and of the TOML config file.

Precedence: explicit arguments (CLI flags) > config file > environment > defaults.
"""

from __future__ import annotations

import os
from pathlib import Path

from pagereader.options import Options, load_config

ENV_CONFIG = "PAGEREADER_CONFIG"
ENV_DPI = "PAGEREADER_DPI"
ENV_TESSERACT = "PAGEREADER_TESSERACT"
ENV_SOFFICE = "PAGEREADER_SOFFICE"
ENV_TOKENS = "PAGEREADER_TOKENS"


def resolve_options(config: str | Path | None = None) -> Options:
    """Options from the config file (argument or PAGEREADER_CONFIG) and environment."""
    path = config or os.environ.get(ENV_CONFIG)
    options = load_config(path) if path else Options()
    dpi = os.environ.get(ENV_DPI)
    if dpi and not config:
        data = options.model_dump()
        data["render"]["dpi"] = int(dpi)
        options = Options.model_validate(data)
    return options


def tesseract_binary(default: str = "tesseract") -> str:
    """Which tesseract executable to run."""
    return os.environ.get(ENV_TESSERACT, default)


def soffice_binary() -> str | None:
    """An explicit LibreOffice executable, if the environment names one."""
    return os.environ.get(ENV_SOFFICE)


def service_tokens() -> str | None:
    """The service's API tokens given in the environment (NAME:ROLE:TOKEN, comma-separated)."""
    return os.environ.get(ENV_TOKENS)
