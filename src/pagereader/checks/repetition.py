"""Degenerate repetition: a decoder stuck in a loop repeats a phrase or a line to its limit.

Three signals: a run of identical lines, a short unit repeated back to back (the PaddleOCR and
MinerU loop), and, where a reference exists, a compression ratio far above the reference's
(normal prose compresses about 2.5x; a loop compresses without bound).
"""

from __future__ import annotations

import re
import zlib

from pagereader.checks.base import Subject
from pagereader.text.chars import normalize, strip_markdown
from pagereader.types import Finding

_UNIT = re.compile(r"(.{1,80}?)\1{2,}", re.S)
_LETTER = re.compile(r"[^\W\d_]")
_MAX_SCAN = 20_000


def _min_repeats(unit: str, table: bool) -> int:
    base = 10 if len(unit) == 1 else 6 if len(unit) < 10 else 5
    return base + 3 if table else base


def repeated_unit(text: str, min_span: int, table: bool = False) -> tuple[str, int] | None:
    """The first unit with letters repeated back to back over ``min_span`` characters, and its
    count; units of punctuation or digits alone (leader dots, rules, zeros) are normal."""
    flat = " ".join(text.split())
    if len(flat) > _MAX_SCAN:
        flat = flat[: _MAX_SCAN // 2] + " " + flat[-_MAX_SCAN // 2 :]
    span_needed = min_span * 2 if table else min_span
    for match in _UNIT.finditer(flat):
        unit = match.group(1)
        count = len(match.group(0)) // len(unit)
        if not _LETTER.search(unit) or len(match.group(0)) < span_needed:
            continue
        if count >= _min_repeats(unit, table):
            return unit, count
    return None


def line_run(text: str, min_run: int = 3) -> tuple[str, int] | None:
    """The longest run of identical lines with letters, when it reaches ``min_run``."""
    best: tuple[str, int] | None = None
    previous, run = "", 0
    for raw in text.splitlines():
        line = " ".join(raw.split())
        if line and line == previous:
            run += 1
        else:
            previous, run = line, 1
        long_enough = run >= min_run and len(line) >= 4 and _LETTER.search(line)
        if long_enough and (best is None or run > best[1]):
            best = (line, run)
    return best


def compression_ratio(text: str) -> float:
    """Bytes of UTF-8 over bytes of zlib: about 2-3.5 for prose, far more for a loop."""
    data = text.encode("utf-8")
    return len(data) / max(1, len(zlib.compress(data, 9)))


def _in_reference(fragment: str, count: int, reference: str | None) -> bool:
    if reference is None:
        return False
    flat = normalize(reference, keep_spaces=True)
    return flat.count(" ".join(fragment.split())) >= count


def check_repetition(
    subject: Subject, min_span: int = 40, ratio_max: float = 4.5, ratio_min_chars: int = 300
) -> list[Finding]:
    """An error for a loop the reference does not share."""
    table = subject.kind == "table"
    answer = subject.answer
    plain = normalize(strip_markdown(answer), markdown=False, keep_spaces=True)
    run = line_run(strip_markdown(answer), 8 if table else 3)
    if run and not _in_reference(run[0], run[1], subject.reference):
        line, count = run
        return [
            Finding(
                check="repetition",
                severity="error",
                message=f"the line {line[:60]!r} repeats {count} times in a row",
            )
        ]
    unit = repeated_unit(plain, min_span, table)
    if unit and not _in_reference(unit[0] * unit[1], 1, subject.reference):
        text, count = unit
        return [
            Finding(
                check="repetition",
                severity="error",
                message=f"{text[:40]!r} repeats {count} times back to back",
            )
        ]
    if subject.reference is not None and len(plain) >= ratio_min_chars:
        ratio = compression_ratio(plain)
        ref_plain = normalize(subject.reference, keep_spaces=True)
        ref_ratio = compression_ratio(ref_plain) if ref_plain else 1.0
        if ratio > max(ratio_max, 2.0 * ref_ratio):
            return [
                Finding(
                    check="repetition",
                    severity="error",
                    message=f"compression ratio {ratio:.1f} against {ref_ratio:.1f} for "
                    f"the {subject.reference_source}: the answer loops",
                )
            ]
    return []
