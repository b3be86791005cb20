"""The embedded model packages log every model load at INFO to their own handlers; keep them to
errors so that pagereader's output stays readable."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
_PREFIXES = ("rapid_layout", "RapidLayout", "RapidOCR", "rapidocr")


def quiet_vendor_logs() -> None:
    """Raise the embedded packages' loggers to ERROR."""
    for name in list(logging.root.manager.loggerDict):
        if name.startswith(_PREFIXES):
            logging.getLogger(name).setLevel(logging.ERROR)


def load_quietly(factory: Callable[[], T]) -> T:
    """Build a model with INFO and WARNING silenced while it loads, then keep them quiet."""
    previous = logging.root.manager.disable
    logging.disable(logging.WARNING)
    try:
        return factory()
    finally:
        logging.disable(previous)
        quiet_vendor_logs()
