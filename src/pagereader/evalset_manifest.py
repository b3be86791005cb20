"""The evalset manifest: ``manifest.jsonl``, one page a line, pagereader's own dataset format.

Three parts of pagereader speak it: ``make-evalset`` writes synthetic pages, the service's
``export-evalset`` writes the pages reviewers checked, and ``eval`` reads both. The line's
shape and the language guess live here, with no optional dependency, so that the service (the
``service`` extra) writes what the evaluator (the ``eval`` extra) reads without importing it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pagereader.errors import InputError

MANIFEST_NAME = "manifest.jsonl"


class ManifestEntry(BaseModel):
    """One page of an evalset: the document and its reference text, paths relative to the
    manifest; ``critical`` holds regular expressions whose every match must be read right."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    file: str = Field(min_length=1)
    page: int = Field(default=1, ge=1)
    reference: str = Field(min_length=1)
    lang: str = "en"
    critical: tuple[str, ...] = ()
    job: str | None = None
    reviewed_by: tuple[str, ...] = ()

    def line(self) -> str:
        """The JSON line; fields without a value are left out."""
        fields = self.model_dump(exclude_none=True)
        return json.dumps({k: v for k, v in fields.items() if v != ()}, ensure_ascii=False)


def guess_lang(text: str) -> str:
    """A language tag from the script that dominates a reference: ko, zh-Hant, ja, ar or en."""
    counts = {"ko": 0, "zh-Hant": 0, "ja": 0, "ar": 0}
    for ch in text:
        code = ord(ch)
        if 0xAC00 <= code <= 0xD7A3 or 0x1100 <= code <= 0x11FF:
            counts["ko"] += 1
        elif 0x3040 <= code <= 0x30FF:
            counts["ja"] += 1
        elif 0x4E00 <= code <= 0x9FFF:
            counts["zh-Hant"] += 1
        elif 0x0600 <= code <= 0x06FF:
            counts["ar"] += 1
    letters = sum(1 for ch in text if ch.isalpha()) or 1
    best = max(counts, key=lambda k: counts[k])
    return best if counts[best] / letters > 0.2 else "en"


def write_manifest(folder: Path, entries: Iterable[ManifestEntry]) -> Path:
    """``folder/manifest.jsonl`` with one line per entry."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / MANIFEST_NAME
    path.write_text("".join(f"{entry.line()}\n" for entry in entries), encoding="utf-8")
    return path


def read_manifest(path: Path) -> Iterator[tuple[int, ManifestEntry]]:
    """The entries of a manifest with their line numbers; a line that is not an entry names
    its number and the file."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield number, ManifestEntry.model_validate_json(line)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "line"
            raise InputError(
                f"manifest line {number} is invalid: {where}: {first['msg']}",
                file=path,
                hint='each line needs {"file", "page", "reference"}; paths are relative',
            ) from None
