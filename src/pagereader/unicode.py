"""Text that can be written anywhere: surrogate pairs joined, lone surrogates replaced.

PDFium reports a character outside the Basic Multilingual Plane (Gothic, emoji, rare CJK) as
two UTF-16 code units, and a broken text layer or a JSON answer can carry a lone surrogate;
Python keeps either inside a ``str``, but UTF-8 (files, JSON, SQLite) refuses them. Pairs are
joined into the character they encode; a lone surrogate becomes U+FFFD and is counted, so the
output can say so.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

from pydantic import BaseModel

_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"
Model = TypeVar("Model", bound=BaseModel)


def clean_text(text: str) -> tuple[str, int]:
    """``text`` with surrogate pairs joined and lone surrogates replaced; and how many were."""
    if not _SURROGATE.search(text):
        return text, 0
    fixed = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return fixed, fixed.count(REPLACEMENT) - text.count(REPLACEMENT)


def _walk(value: Any, counter: list[int]) -> Any:
    if isinstance(value, str):
        fixed, lone = clean_text(value)
        counter[0] += lone
        return fixed
    if isinstance(value, dict):
        return {_walk(k, counter): _walk(v, counter) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_walk(v, counter) for v in value)
    return value


def clean_model(model: Model) -> tuple[Model, int]:
    """``model`` with every string cleaned (see :func:`clean_text`), and the lone surrogates
    replaced; the same object when nothing needed it."""
    try:
        model.model_dump_json()
    except ValueError:  # pydantic's serialization error: "surrogates not allowed"
        counter = [0]
        data = _walk(model.model_dump(), counter)
        return type(model).model_validate(data), counter[0]
    return model, 0
