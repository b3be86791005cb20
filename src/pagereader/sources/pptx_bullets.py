"""Whether a slide paragraph shows a bullet or a number, resolved the way PowerPoint does.

A paragraph's own ``a:pPr`` rarely says it: most bullets come from the list styles it inherits,
nearest first: the shape's ``a:lstStyle``, the matching placeholder on the slide layout (same
``idx``, else same type), the slide master's placeholder of that type, then the master's text
styles (``p:titleStyle`` for titles, ``p:bodyStyle`` for other placeholders, ``p:otherStyle`` for
plain text boxes). Each level of a paragraph (``lvl``) has its own entry (``a:lvl{N}pPr``) in
every list style, and the first one that names a bullet (``buNone``, ``buChar``, ``buAutoNum``,
``buBlip``) decides. An auto-number also gives its scheme and first number, so a numbered
paragraph keeps the number (``3.``, ``c)``, ``iv.``) its reader sees.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Literal

from lxml import etree

logger = logging.getLogger(__name__)

_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
_P = "http://schemas.openxmlformats.org/presentationml/2006/main"
_NS = {"a": _A, "p": _P}
_PH = etree.XPath("./*[1]/p:nvPr/p:ph", namespaces=_NS)
_LIST_STYLE = etree.XPath("./p:txBody/a:lstStyle", namespaces=_NS)
_SHAPES = etree.XPath("./p:cSld/p:spTree//p:sp", namespaces=_NS)
_TITLE_TYPES = frozenset({"title", "ctrTitle"})
_OTHER_TYPES = frozenset({"dt", "ftr", "sldNum", "hdr"})
"""Placeholders whose text follows the master's ``p:otherStyle``, as a plain text box does."""
_BODY_LIKE = ("obj", "subTitle", "pic", "chart", "tbl", "dgm", "media", "clipArt")
_MASTER_TYPE = {"ctrTitle": "title", **{kind: "body" for kind in _BODY_LIKE}}
"""A layout placeholder of one type inherits from the master's placeholder of another."""
_ROMAN = (
    (1000, "m"),
    (900, "cm"),
    (500, "d"),
    (400, "cd"),
    (100, "c"),
    (90, "xc"),
    (50, "l"),
    (40, "xl"),
    (10, "x"),
    (9, "ix"),
    (5, "v"),
    (4, "iv"),
    (1, "i"),
)

_CIRCLED = 20
"""Unicode has circled digits ① to ⑳."""

BulletKind = Literal["none", "char", "number", "picture"]


@dataclass(frozen=True)
class Bullet:
    """What a paragraph shows before its text: nothing, a character, a number or a picture."""

    kind: BulletKind = "none"
    scheme: str = ""
    """The auto-number scheme (``arabicPeriod``, ``alphaLcParenR``, ...) of a numbered one."""
    start: int = 1
    """The number of the first paragraph of a numbered run (``startAt``)."""

    @property
    def shown(self) -> bool:
        """Whether the paragraph is a list item."""
        return self.kind != "none"


NO_BULLET = Bullet()


@dataclass(frozen=True)
class ListStyles:
    """The list styles one shape's paragraphs inherit from, nearest first."""

    styles: tuple[Any, ...] = ()

    def bullet(self, paragraph: Any) -> Bullet:
        """The bullet ``paragraph`` (a python-pptx paragraph of the shape) shows: its own
        ``a:pPr`` first, then each inherited style's entry for its level; none when nobody
        says."""
        found = _answer(paragraph._p.pPr)
        if found is not None:
            return found
        tag = f"{{{_A}}}lvl{int(paragraph.level or 0) + 1}pPr"
        for style in self.styles:
            found = _answer(style.find(tag))
            if found is not None:
                return found
        return NO_BULLET


MAX_START = 32767
"""The largest ``startAt`` the schema allows (ST_TextBulletStartAtNum, 1-32767): a deck's
number past it would make a letter or roman label as long as the number is large."""


def _answer(props: Any) -> Bullet | None:
    """The bullet a paragraph-properties element names, or None when it names none."""
    if props is None:
        return None
    for child in props:
        name = str(child.tag).rsplit("}", 1)[-1]
        if name == "buNone":
            return NO_BULLET
        if name == "buChar":
            return Bullet(kind="char")
        if name == "buBlip":
            return Bullet(kind="picture")
        if name == "buAutoNum":
            try:
                start = min(max(int(child.get("startAt") or 1), 1), MAX_START)
            except ValueError:
                start = 1
            return Bullet(kind="number", scheme=child.get("type") or "arabicPeriod", start=start)
    return None


def _placeholder(element: Any) -> tuple[str, str] | None:
    """(type, idx) of a placeholder shape element; None for a plain shape."""
    found = _PH(element)
    if not found:
        return None
    return str(found[0].get("type") or "obj"), str(found[0].get("idx") or "0")


def _list_style(element: Any) -> Any:
    found = _LIST_STYLE(element)
    return found[0] if found else None


def _placeholders(shapes_owner: Any) -> list[tuple[str, str, Any]]:
    """(type, idx, element) of every placeholder on a layout or a master."""
    out = []
    for element in _SHAPES(shapes_owner._element):
        found = _placeholder(element)
        if found is not None:
            out.append((found[0], found[1], element))
    return out


def _match(owner: Any, kind: str, idx: str | None) -> tuple[str, Any] | None:
    """The placeholder of ``owner`` a placeholder inherits from: the same idx (on a layout),
    else the same type; its type and element."""
    candidates = _placeholders(owner)
    if idx is not None:
        for found_type, found_idx, element in candidates:
            if found_idx == idx:
                return found_type, element
    for found_type, _, element in candidates:
        if found_type == kind:
            return found_type, element
    return None


def _master_style(master: Any, kind: str | None) -> Any:
    """The master's text style for a placeholder of ``kind`` (None: a plain text box)."""
    name = "otherStyle"
    if kind in _TITLE_TYPES:
        name = "titleStyle"
    elif kind is not None and kind not in _OTHER_TYPES:
        name = "bodyStyle"
    found = etree.XPath(f"./p:txStyles/p:{name}", namespaces=_NS)(master._element)
    return found[0] if found else None


def list_styles(shape: Any, part: Any) -> ListStyles:
    """The list styles ``shape`` (on the slide whose part is ``part``) inherits from, nearest
    first; only its own when the slide's layout or master cannot be read."""
    element = shape._element
    styles: list[Any] = [_list_style(element)]
    placeholder = _placeholder(element)
    try:
        layout = part.slide.slide_layout
        master = layout.slide_master
    except Exception as exc:  # a shape outside a slide, or a slide without a readable layout
        logger.debug("no layout for %r: %s", getattr(shape, "name", "?"), exc)
        return ListStyles(tuple(s for s in styles if s is not None))
    kind = None
    if placeholder is not None:
        kind, idx = placeholder
        on_layout = _match(layout, kind, idx)
        if on_layout is not None:
            kind = on_layout[0]
            styles.append(_list_style(on_layout[1]))
        on_master = _match(master, _MASTER_TYPE.get(kind, kind), None)
        if on_master is not None:
            styles.append(_list_style(on_master[1]))
    styles.append(_master_style(master, kind))
    return ListStyles(tuple(s for s in styles if s is not None))


def _letters(number: int) -> str:
    """a..z, then aa..zz, as PowerPoint counts past z."""
    index = number - 1
    return chr(ord("a") + index % 26) * (index // 26 + 1)


def _roman(number: int) -> str:
    out = []
    for value, letters in _ROMAN:
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)


def number_label(scheme: str, number: int) -> str:
    """The label an auto-number ``scheme`` prints for ``number`` (``alphaLcParenR``, 3 ->
    ``c)``; ``romanUcPeriod``, 4 -> ``IV.``); arabic for a scheme not known here and for a
    number below 1, where letters and numerals have no form."""
    number = max(number, 0)
    digits = str(number)
    if number >= 1 and scheme.startswith("alpha"):
        digits = _letters(number)
    elif number >= 1 and scheme.startswith("roman"):
        digits = _roman(number)
    elif 1 <= number <= _CIRCLED and scheme.startswith("circleNum"):
        return chr(0x2460 + number - 1)
    if "Uc" in scheme:
        digits = digits.upper()
    if scheme.endswith("ParenBoth"):
        return f"({digits})"
    if scheme.endswith("ParenR"):
        return f"{digits})"
    if scheme.endswith("Plain"):
        return digits
    return f"{digits}."
