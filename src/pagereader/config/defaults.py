"""The defaults of the option tables: the route table, the verifier's agreement floors and
remedies. Data only, so that options.py holds the option models and these stay one place."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # names for annotations only: the planner reads the pixel bounds at --help
    from pagereader.types import BlockKind, CheckName

#: PaddleX's bounds for a block crop (144 and 1280 tiles of 28x28 pixels): what a request
#: carries by default, what serve-engine assumes when a request names none, and what the
#: planner sizes the KV cache for.
DEFAULT_MIN_PIXELS = 112_896
DEFAULT_MAX_PIXELS = 1_003_520

VerifyRemedy = Literal["retry", "escalate", "fallback", "review"]

DEFAULT_REMEDIES: Mapping[CheckName, tuple[VerifyRemedy, ...]] = {
    "empty": ("retry", "fallback", "escalate", "review"),
    "truncation": ("retry", "fallback", "escalate", "review"),
    "reasoning": ("retry", "fallback", "escalate", "review"),
    "repetition": ("retry", "fallback", "escalate", "review"),
    "script": ("fallback", "escalate", "retry", "review"),
    "critical": ("fallback", "retry", "escalate", "review"),
    "agreement": ("fallback", "escalate", "retry", "review"),
    "table": ("retry", "escalate", "review"),
    "plausibility": ("escalate", "retry", "review"),
}


DEFAULT_AGREEMENT_MIN: Mapping[BlockKind, float] = {
    "title": 0.8,
    "text": 0.85,
    "list": 0.85,
    "caption": 0.8,
    "header": 0.6,
    "footer": 0.6,
    "table": 0.7,
}

DEFAULT_AGREEMENT_MIN_OCR: Mapping[BlockKind, float] = {
    "title": 0.6,
    "text": 0.7,
    "list": 0.7,
    "caption": 0.6,
    "header": 0.4,
    "footer": 0.4,
    "table": 0.5,
}


DEFAULT_ROUTES: Mapping[str, tuple[str, ...]] = {
    "digital.*": ("textlayer", "ocr"),
    "digital.figure": ("ocr",),
    "dense.*": ("textlayer", "ocr"),
    "scan.*": ("ocr",),
    "*.table": ("grid", "textlayer", "ocr"),
}
