"""A hyphen where a line wraps: part of a compound (kept) or a word broken by the typesetter
(dropped).

Without a dictionary the page itself is the evidence: a word the page also prints whole
("hyphenated") was broken, one it also prints with its hyphen ("dense-page") is a compound. A
capital or a digit after the hyphen (COVID-19, non-English) never continues a broken word, and
a line that goes on with an ending that is no word of its own (-tion, -ment, -ing, or one with
the consonants before it: -vably, -mation) always does.
Anything else keeps its hyphen: that is what the page prints, and a kept hyphen loses no letter,
while a wrongly dropped one makes a word that does not exist ("densepage").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable

_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_LAST_PART = re.compile(r"([^\W\d_]+)-$")
_FIRST_PART = re.compile(r"^([^\W\d_]+)")
_ENDING = re.compile(
    r"(?:tions?|sions?|ations?|ments?|ness(?:es)?|ings?|ities|ity|ly|ous|ives?|ably|able|ibly"
    r"|ible|ances?|ences?|tures?|ically|ical|ally|isms?|ists?|ize[sd]?|ised?|ful|ships?|est|ers"
    r"|als?|ed)+"
)
"""Endings that are no word of their own (alone or strung together: -tion-al): a line that
goes on with one continues a word."""
_SPLIT_ENDING = re.compile(r"(?=\w{5})[bcdfghjklmnpqrstvwxz]{1,2}(?:" + _ENDING.pattern + ")")
"""An ending with the one or two consonants a typesetter moves to the next line with it
(irretrie-vably, infor-mation): no word of its own either. Five letters at least: shorter ones
are words (second-best, well-fed, user-led)."""


def vocabulary(texts: Iterable[str]) -> frozenset[str]:
    """The words of some texts, lower case, compounds whole (``dense-page``)."""
    return frozenset(m.group().lower() for text in texts for m in _WORD.finditer(text))


def keeps_hyphen(head: str, tail: str, words: Callable[[], Collection[str]]) -> bool:
    """Whether the hyphen ending ``head`` stays when ``tail`` (the next line) is joined to it.

    ``words`` gives the page's vocabulary (:func:`vocabulary`); it is asked for only when the
    letters alone do not decide."""
    if not tail or not tail[0].islower():
        return True
    last, first = _LAST_PART.search(head), _FIRST_PART.match(tail)
    if last is None or first is None:
        return True
    left, right = last.group(1).lower(), first.group(1).lower()
    known = words()
    if left + right in known:
        return False
    if f"{left}-{right}" in known:
        return True
    return _ENDING.fullmatch(right) is None and _SPLIT_ENDING.fullmatch(right) is None
