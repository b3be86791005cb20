"""Text that Markdown would take for HTML, escaped so that a viewer shows it.

A slide that prints ``<infinite do loop>`` or ``&nbsp;`` would otherwise lose the words: a
Markdown viewer hides what looks like a tag and turns what looks like an entity into its
character. Only a ``<`` that could open a tag, comment or autolink and an ``&`` that could open
an entity are escaped; ``3 < 5`` and ``R&D`` stay as they are, so the Markdown still reads as
the page.
"""

from __future__ import annotations

import re

_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")
_ENTITY = re.compile(r"&(?=#?[A-Za-z0-9]+;)")


def escape_html(text: str) -> str:
    """``<`` before a letter, ``/``, ``!`` or ``?`` as ``&lt;``; ``&`` before ``name;`` or
    ``#123;`` as ``&amp;``."""
    return _TAG_START.sub("&lt;", _ENTITY.sub("&amp;", text))
