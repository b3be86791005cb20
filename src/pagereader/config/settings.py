"""The only reader of PAGEREADER_* environment variables and of the TOML config file.

Precedence: explicit arguments (CLI flags) > config file > environment > defaults. Every layer
goes through :func:`pagereader.config.file.override`, so a bad value from any of them is one
ConfigError naming where it came from.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pagereader.config.file import OptionPath, override, read_config
from pagereader.config.options import Options

ENV_CONFIG = "PAGEREADER_CONFIG"
ENV_DPI = "PAGEREADER_DPI"
ENV_TESSERACT = "PAGEREADER_TESSERACT"
ENV_SOFFICE = "PAGEREADER_SOFFICE"
ENV_OFFICE_ISOLATION = "PAGEREADER_OFFICE_ISOLATION"
ENV_TOKENS = "PAGEREADER_TOKENS"
ENV_MAX_IMAGE_PIXELS = "PAGEREADER_MAX_IMAGE_PIXELS"
ENV_MAX_INFLATED_MB = "PAGEREADER_MAX_INFLATED_MB"
ENV_MAX_DOCUMENT_INFLATED_MB = "PAGEREADER_MAX_DOCUMENT_INFLATED_MB"
ENV_OCR_THREADS = "PAGEREADER_OCR_THREADS"
ENV_OCR_BACKEND = "PAGEREADER_OCR_BACKEND"
# environment variables that set an option, and the option they set
ENV_OPTIONS: dict[str, OptionPath] = {
    ENV_DPI: ("render", "dpi"),
    ENV_MAX_IMAGE_PIXELS: ("render", "max_image_pixels"),
    ENV_MAX_INFLATED_MB: ("limits", "max_inflated_mb"),
    ENV_MAX_DOCUMENT_INFLATED_MB: ("limits", "max_document_inflated_mb"),
    ENV_OCR_THREADS: ("ocr", "threads"),
    ENV_OCR_BACKEND: ("ocr", "backend"),
}
CLI_SOURCE = "command line"


def resolve_options(
    config: str | Path | None = None, flags: Mapping[OptionPath, object] | None = None
) -> Options:
    """Options from the environment, the config file (argument or PAGEREADER_CONFIG) and
    the CLI's flags (``None`` values are flags not given), in that order of increasing weight."""
    options = Options()
    for name, path in ENV_OPTIONS.items():
        value = os.environ.get(name)
        if value:
            options = override(options, {path: value}, source=name)
    file = config or os.environ.get(ENV_CONFIG)
    if file:
        options = override(options, read_config(file), source=file)
    if flags:
        options = override(options, flags, source=CLI_SOURCE)
    return options


def tesseract_binary(default: str = "tesseract") -> str:
    """Which tesseract executable to run."""
    return os.environ.get(ENV_TESSERACT, default)


def soffice_binary() -> str | None:
    """An explicit LibreOffice executable, if the environment names one."""
    return os.environ.get(ENV_SOFFICE)


def office_isolation() -> str:
    """How LibreOffice is isolated: ``auto`` (the default), ``bwrap``, ``unshare`` or ``none``
    (sources/office_sandbox.py)."""
    return os.environ.get(ENV_OFFICE_ISOLATION, "auto").strip().lower() or "auto"


def service_tokens() -> str | None:
    """The service's API tokens given in the environment (NAME:ROLE:TOKEN, comma-separated)."""
    return os.environ.get(ENV_TOKENS)
