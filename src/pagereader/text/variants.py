"""Han characters written in the forms of Taiwan's standard, from OpenCC's tables.

The embedded OCR (PP-OCR) learnt mostly Simplified Chinese: on a Traditional Chinese page it
now and then writes a simplified form (条 for 條, 规 for 規) or a variant the Taiwan standard
does not use (爲, 内, 衆 for 為, 內, 眾). OpenCC's ``s2tw`` tables map both to Taiwan standard
Traditional. They are applied one character at a time: phrase tables pick words (``s2twp``
turns 软件 into 軟體), and a change of vocabulary is no correction of a misread form. A
character that is itself a Traditional form as well (里, 后, 干, 台: OpenCC's simplified-to-
traditional table lists it among its own candidates) is only normalised as a Traditional
variant (``t2tw``), never turned into another character (鄰里 stays 鄰里).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from pagereader.text.chars import is_han

BOTH_FORMS = frozenset(
    "㐹万丑丰了于云亘仆仇价仿伙余佛佣俊修借僵克党具冢冬准凌几凶出划刮制千升卜占卷厂厘只台叶吁吃"
    "合吊同后向吣呆周咨咸咽哄唇喂噪回困坐坯堤夫夸奸姜娘它家尸局岩岳巨布帘席干幸广庵弦彩征御志念恤"
    "愈愿戚扇才扎托扣折抵拐拿挂挨挽捆捍据搜斗斤斫旋昆暗曲札朱朴杆杠杯杰松板极果柜栗核梁棱檗欲沈沾"
    "泛注浚涂涌淀游溪漓澄焰熏狸玩琅璇症皂矩确硷私秋种穗筑筱糊系累耇胄背胜胡腊腌膻致舍芸苔苹范荐蒙蔑"
    "藤虫蚝蜡蝎表谷豆象跖辟适郁酸采里雇雕面"
)
"""Characters that OpenCC's STCharacters table (opencc 1.4.2) lists among their own Traditional
forms: simplified and traditional text both use them."""

TRADITIONAL_MARGIN = 2
"""A page reads as Traditional when its traditional-only characters outnumber its
simplified-only ones this many times over (PP-OCR's slips on a Traditional page are a few in
a hundred; a Simplified page is the other way round)."""


class _Converter(Protocol):
    def convert(self, text: str) -> str: ...


@functools.cache
def _converter(config: str) -> _Converter:
    """An OpenCC converter, loaded once on first use (its tables take a few milliseconds)."""
    import opencc

    converter: _Converter = opencc.OpenCC(config)
    return converter


@functools.cache
def taiwan_form(char: str) -> str:
    """The Taiwan standard form of one Han character (the character itself when it is one)."""
    if not is_han(char):
        return char
    written = _converter("t2tw" if char in BOTH_FORMS else "s2tw").convert(char)
    return written if len(written) == 1 else char


@dataclass(frozen=True)
class Mapped:
    """A text in Taiwan standard forms and the characters changed: (read, written, count),
    in the order first met."""

    text: str
    pairs: tuple[tuple[str, str, int], ...]


def to_taiwan_forms(text: str) -> Mapped:
    """``text`` with every Han character in its Taiwan standard form; the same length."""
    written = "".join(taiwan_form(ch) for ch in text)
    counts = Counter((a, b) for a, b in zip(text, written, strict=True) if a != b)
    return Mapped(written, tuple((a, b, n) for (a, b), n in counts.items()))


@functools.cache
def _traditional_only(char: str) -> bool:
    return is_han(char) and _converter("t2s").convert(char) != char


@functools.cache
def _simplified_only(char: str) -> bool:
    return is_han(char) and char not in BOTH_FORMS and _converter("s2t").convert(char) != char


def reads_traditional(texts: Iterable[str]) -> bool:
    """Whether ``texts`` (a page's) are written in Traditional Chinese: its characters that only
    Traditional text uses (條, 說) clearly outnumber those that only Simplified text uses."""
    traditional = simplified = 0
    for text in texts:
        for ch in text:
            traditional += _traditional_only(ch)
            simplified += _simplified_only(ch)
    return traditional > 0 and traditional >= TRADITIONAL_MARGIN * simplified


@functools.cache
def traditional_form(char: str) -> str:
    """OpenCC's standard Traditional form of a character only Simplified text uses (强 becomes
    強), any other character unchanged: the forms Hanja in Korean text are printed in, which
    are not always Taiwan's (Korea prints 僞 where Taiwan prints 偽)."""
    if not _simplified_only(char):
        return char
    written = _converter("s2t").convert(char)
    return written if len(written) == 1 else char
