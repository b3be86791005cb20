"""Mojibake: text in a legacy code page that a producer wrote out as Latin-1 (or cp1252).

A caption saved as GBK and read byte by byte as Latin-1 comes through the text layer as
``ÐÂ½¨ÎÄ±¾ÎÄµµ`` (新建文本文档). Every character is a valid one, so the glyph checks pass it. The
signature is a run of characters from the upper half of Latin-1 whose bytes decode cleanly, in
one of the CJK code pages or UTF-8, into CJK or Hangul. Real Latin-1 text rarely sets four such
characters in a row, and almost never six or four with a sign among them (½ ¨ ± µ), while
double-byte code pages fill a third of their bytes with those signs; the decoded text must be
CJK throughout. So ``Ñandú``, ``Ærø`` or ``ÄÖÜß`` are not mistaken for it.
"""

from __future__ import annotations

import re

from pagereader.text.chars import is_cjk, is_hangul

_CP1252_EXTRA = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ"
_RUN = re.compile(f"[\u0080-\u00ff{_CP1252_EXTRA}]{{4,}}")
_CODECS = ("utf-8", "gbk", "big5", "cp949", "shift_jis")
_MIN_DECODED = 2
_SIGNS = frozenset("¡¢£¤¥¦§¨©ª«¬\xad®¯°±²³´µ¶·¸¹º»¼½¾¿×÷" + _CP1252_EXTRA)
_SURE_RUN = 6


def _raw_bytes(run: str) -> bytes | None:
    for codec in ("latin-1", "cp1252"):
        try:
            return run.encode(codec)
        except UnicodeEncodeError:
            continue
    return None


def _east_asian(text: str) -> bool:
    return len(text) >= _MIN_DECODED and all(is_cjk(ch) or is_hangul(ch) for ch in text)


def decoded_mojibake(run: str) -> str | None:
    """What a run of Latin-1 characters says when its bytes are read in the code page they
    were written in; None when no CJK code page reads it as CJK or Hangul text."""
    if len(run) < _SURE_RUN and not any(ch in _SIGNS for ch in run):
        return None
    raw = _raw_bytes(run)
    if raw is None:
        return None
    for codec in _CODECS:
        try:
            text = raw.decode(codec)
        except UnicodeDecodeError:
            continue
        if _east_asian(text):
            return text
    return None


def mojibake_chars(text: str) -> int:
    """How many characters of ``text`` belong to mojibake runs."""
    return sum(len(m.group()) for m in _RUN.finditer(text) if decoded_mojibake(m.group()))
