"""A slide's shapes as items: kind, box (EMU, slide coordinates), exact text or table.

Text frames give their paragraphs (a line break inside one is a new line), tables their cells
with spans, charts their data (pptx_charts.py), SmartArt the text of its data model, pictures
their alt text and a hash of their image (a logo is the same blob on every slide). Groups keep
their children, placed from the group's child space onto the slide.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from lxml import etree
from pptx.enum.shapes import PP_PLACEHOLDER

from pagereader.sources.pptx_bullets import Bullet, list_styles, number_label
from pagereader.sources.pptx_charts import read_chart
from pagereader.text.tables import table_to_html, table_to_markdown
from pagereader.types import BBox, BlockKind, Table, TableCell

logger = logging.getLogger(__name__)

_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
_NS = {"a": _A, "r": _R, "dgm": _DGM}
_TITLES = frozenset(
    {PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE, PP_PLACEHOLDER.VERTICAL_TITLE}
)
# a footer and a date repeat on every slide (kept in the JSON, out of the prose); the slide
# number is the slide's own, printed where the slide shows it
_FURNITURE = frozenset({PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.DATE})

_FILE_NAME = re.compile(
    r"(^\S+\.(png|jpe?g|gif|bmp|tiff?|emf|wmf|svg|webp)$)|\[\d+\]$|^[A-Za-z]{2,4}\d{6,}", re.I
)
_GENERATED = re.compile(
    r"(AI-generated content may be incorrect|description automatically generated)\.?$", re.I
)
"""PowerPoint's own guess at a picture, not the author's description."""
_CAPTION = re.compile(r"^(figure|fig\.|table|chart|exhibit|圖|表|그림)\s*\d", re.I)

Place = Callable[[BBox], BBox]
"""Maps a box in a group's child space onto the slide."""


@dataclass(frozen=True)
class ShapeItem:
    """One shape read from the slide's XML; a group holds its children."""

    kind: BlockKind
    box: BBox
    text: str = ""
    table: Table | None = None
    source: str = "pptx"
    picture_hash: str = ""
    children: tuple[ShapeItem, ...] = ()
    name: str = ""
    caption: str = ""
    """A chart's title, printed above its data table."""
    parts: tuple[ShapeItem, ...] = ()
    """A text box's runs of list and non-list paragraphs, read in this order in its place."""

    @property
    def is_group(self) -> bool:
        return bool(self.children) and self.source == "pptx-group"

    def markdown(self) -> str:
        """The table's Markdown (HTML when a cell spans), or the text."""
        return table_to_markdown(self.table) if self.table is not None else self.text

    def html(self) -> str | None:
        return table_to_html(self.table) if self.table is not None else None


def _identity(box: BBox) -> BBox:
    return box


def _box(shape: Any, place: Place) -> BBox | None:
    try:
        left, top, width, height = shape.left, shape.top, shape.width, shape.height
    except Exception:  # an inherited position python-pptx cannot resolve
        return None
    if left is None or top is None or width is None or height is None:
        return None
    return place((float(left), float(top), float(left + width), float(top + height)))


def _group_place(group: Any, place: Place) -> Place:
    """The mapping of a group's child space (chOff, chExt) onto its box (off, ext)."""
    xfrm = group._element.grpSpPr.find(f"{{{_A}}}xfrm")
    if xfrm is None:
        return place
    off, ext = xfrm.find(f"{{{_A}}}off"), xfrm.find(f"{{{_A}}}ext")
    ch_off, ch_ext = xfrm.find(f"{{{_A}}}chOff"), xfrm.find(f"{{{_A}}}chExt")
    if off is None or ext is None or ch_off is None or ch_ext is None:
        return place
    ox, oy = float(off.get("x", 0)), float(off.get("y", 0))
    ex, ey = float(ext.get("cx", 0)), float(ext.get("cy", 0))
    cx, cy = float(ch_off.get("x", 0)), float(ch_off.get("y", 0))
    cw, ch = float(ch_ext.get("cx", 0)) or 1.0, float(ch_ext.get("cy", 0)) or 1.0
    sx, sy = (ex / cw if ex else 1.0), (ey / ch if ey else 1.0)

    def inner(box: BBox) -> BBox:
        return place(
            (
                ox + (box[0] - cx) * sx,
                oy + (box[1] - cy) * sy,
                ox + (box[2] - cx) * sx,
                oy + (box[3] - cy) * sy,
            )
        )

    return inner


def _placeholder_type(shape: Any) -> Any:
    if not getattr(shape, "is_placeholder", False):
        return None
    try:
        return shape.placeholder_format.type
    except Exception:  # a placeholder without a type reads as a plain shape
        return None


def _paragraph_text(paragraph: Any) -> str:
    return str(paragraph.text).replace("\v", "\n").strip()


def _numbered(paragraphs: list[Any], bullets: list[Bullet]) -> list[str]:
    """Paragraph texts; an auto-numbered one with its label (``1.``, ``c)``), counted from its
    scheme's first number within a run of numbered paragraphs of its level and scheme. A
    paragraph ends the runs of its level and deeper ones; the items under a number do not end
    its run (``1.``, its sub-bullets, then ``2.``)."""
    out: list[str] = []
    counters: dict[int, tuple[str, int]] = {}
    for paragraph, bullet in zip(paragraphs, bullets, strict=True):
        level = int(paragraph.level or 0)
        if bullet.kind != "number":
            counters = {k: v for k, v in counters.items() if k < level}
            out.append(_paragraph_text(paragraph))
            continue
        counters = {k: v for k, v in counters.items() if k <= level}
        scheme, count = counters.get(level, (bullet.scheme, bullet.start - 1))
        if scheme != bullet.scheme:
            scheme, count = bullet.scheme, bullet.start - 1
        counters[level] = (scheme, count + 1)
        out.append(f"{number_label(scheme, count + 1)} {_paragraph_text(paragraph)}")
    return out


def _runs(bullets: list[Bullet]) -> list[tuple[int, int]]:
    """(start, end) of each run of consecutive paragraphs that are all list items or all not."""
    runs: list[tuple[int, int]] = []
    for index, bullet in enumerate(bullets):
        if runs and bullets[runs[-1][0]].shown == bullet.shown:
            runs[-1] = (runs[-1][0], index + 1)
        else:
            runs.append((index, index + 1))
    return runs


def _slices(box: BBox, weights: list[int]) -> list[BBox]:
    """The shape's box cut into horizontal bands, one a part, each as tall as its share of the
    lines. An estimate: the deck gives no line positions, and a line that wraps or a larger
    font takes more room than its share."""
    total = max(1, sum(weights))
    out: list[BBox] = []
    top = box[1]
    for index, weight in enumerate(weights):
        bottom = box[3] if index == len(weights) - 1 else top + (box[3] - box[1]) * weight / total
        out.append((box[0], top, box[2], bottom))
        top = bottom
    return out


def _part(paragraphs: list[Any], texts: list[str], listed: bool, box: BBox, name: str) -> ShapeItem:
    """One run of a text box's paragraphs: a list (nested within the run), a caption or text."""
    if listed:
        text = "\n".join(_nested(paragraphs, texts))
        return ShapeItem(kind="list", box=box, text=text, name=name)
    text = "\n".join(texts)
    kind: BlockKind = "caption" if _CAPTION.match(text) else "text"
    return ShapeItem(kind=kind, box=box, text=text, name=name)


def _text_item(shape: Any, box: BBox, kind_of: Any, part: Any) -> ShapeItem | None:
    """A text shape's item; a box whose paragraphs are partly list items holds its runs as
    parts, list and text in paragraph order, each in its own band of the box."""
    paragraphs = [p for p in shape.text_frame.paragraphs if _paragraph_text(p)]
    if not paragraphs:
        return None
    styles = list_styles(shape, part)
    bullets = [styles.bullet(p) for p in paragraphs]
    texts = _numbered(paragraphs, bullets)
    name = str(shape.name)
    if kind_of in _TITLES:
        return ShapeItem(kind="title", box=box, text="\n".join(texts), name=name)
    if kind_of in _FURNITURE:
        return ShapeItem(kind="footer", box=box, text="\n".join(texts), name=name)
    runs = _runs(bullets)
    if len(runs) == 1:
        return _part(paragraphs, texts, bullets[0].shown, box, name)
    lines = [sum(t.count("\n") + 1 for t in texts[a:b]) for a, b in runs]
    parts = tuple(
        _part(paragraphs[a:b], texts[a:b], bullets[a].shown, sliced, name)
        for (a, b), sliced in zip(runs, _slices(box, lines), strict=True)
    )
    return ShapeItem(kind="text", box=box, text="\n".join(texts), name=name, parts=parts)


LIST_INDENT = "  "
"""A list item's text starts with this once per level below the list's top level, so that
the Markdown nests it (its text read without whitespace is unchanged)."""


def _nested(paragraphs: list[Any], texts: list[str]) -> list[str]:
    """List paragraphs indented by their outline level: one step deeper than the nearest item
    above them of a lower level (a Markdown list cannot skip a level)."""
    out: list[str] = []
    above: list[int] = []
    for paragraph, text in zip(paragraphs, texts, strict=True):
        level = int(paragraph.level or 0)
        while above and above[-1] >= level:
            above.pop()
        out.append("\n".join(LIST_INDENT * len(above) + line for line in text.split("\n")))
        above.append(level)
    return out


def _table(graphic_frame: Any) -> Table:
    table = graphic_frame.table
    cells: list[TableCell] = []
    rows, cols = len(table.rows), len(table.columns)
    for r in range(rows):
        for c in range(cols):
            cell = table.cell(r, c)
            if cell.is_spanned:
                continue
            spans = (cell.span_height, cell.span_width) if cell.is_merge_origin else (1, 1)
            text = "\n".join(_paragraph_text(p) for p in cell.text_frame.paragraphs).strip()
            cells.append(TableCell(row=r, col=c, row_span=spans[0], col_span=spans[1], text=text))
    # a header cell spanning rows down makes the rows it covers header rows too
    header = max((c.row_span for c in cells if c.row == 0), default=1) if table.first_row else 0
    header = min(header, rows - 1)
    return Table(rows=rows, cols=cols, cells=tuple(cells), header_rows=header)


def alt_text(shape: Any) -> str:
    """The shape's description (alt text), unless it is only the name of the file the picture
    was inserted from, which PowerPoint writes there by default (``image.png``,
    ``MPj03090780000[1]``): a name describes nothing."""
    found = shape._element.xpath("./*[1]/p:cNvPr")
    text = " ".join(str(found[0].get("descr") or "").split()) if found else ""
    return "" if _FILE_NAME.search(text) or _GENERATED.search(text) else text


def _picture_hash(shape: Any) -> str:
    try:
        return hashlib.sha1(shape.image.blob).hexdigest()
    except Exception:  # a linked or missing image: no blob to recognise it by
        return ""


def smartart_text(graphic_frame: Any, part: Any) -> str:
    """The node texts of a SmartArt diagram's data model, one paragraph a line."""
    ids = etree.XPath(".//dgm:relIds/@r:dm", namespaces=_NS)(graphic_frame._element)
    if not ids:
        return ""
    try:
        data = etree.fromstring(part.related_part(str(ids[0])).blob)
    except Exception as exc:  # a missing or damaged diagram part: no text from it
        logger.warning("SmartArt %r not readable: %s", graphic_frame.name, exc)
        return ""
    lines: list[str] = []
    for point in data.iterfind(f".//{{{_DGM}}}pt"):
        if point.get("type", "node") not in ("node", "asst"):
            continue
        for paragraph in point.iterfind(f"./{{{_DGM}}}t/{{{_A}}}p"):
            text = "".join(t.text or "" for t in paragraph.iterfind(f".//{{{_A}}}t")).strip()
            if text:
                lines.append(text)
    return "\n".join(lines)


def _graphic_item(shape: Any, box: BBox, part: Any) -> ShapeItem | None:
    name = str(shape.name)
    if getattr(shape, "has_table", False) and shape.has_table:
        return ShapeItem(kind="table", box=box, table=_table(shape), source="pptx-table", name=name)
    if getattr(shape, "has_chart", False) and shape.has_chart:
        chart = read_chart(shape)
        if chart is None:
            return ShapeItem(kind="figure", box=box, source="pptx-chart", name=name)
        return ShapeItem(
            kind="table" if chart.table is not None else "figure",
            box=box,
            table=chart.table,
            caption=chart.title,
            source="pptx-chart",
            name=name,
        )
    text = smartart_text(shape, part)
    if text:
        return ShapeItem(kind="text", box=box, text=text, source="pptx-smartart", name=name)
    return ShapeItem(kind="figure", box=box, text=alt_text(shape), source="pptx-object", name=name)


def shape_item(shape: Any, part: Any, place: Place = _identity) -> ShapeItem | None:
    """One shape as an item (None for shapes with nothing to read: a line, an empty box)."""
    box = _box(shape, place)
    tag = str(shape._element.tag).rsplit("}", 1)[-1]
    if tag == "grpSp":
        inner = _group_place(shape, place)
        children = tuple(shape_items(shape.shapes, part, inner))
        if not children:
            return None
        return ShapeItem(
            kind="text",
            box=box or _union(c.box for c in children),
            source="pptx-group",
            children=children,
            name=str(shape.name),
        )
    if box is None:
        box = (0.0, 0.0, 0.0, 0.0)
    if tag == "pic":
        return ShapeItem(
            kind="figure",
            box=box,
            text=alt_text(shape),
            source="pptx-picture",
            picture_hash=_picture_hash(shape),
            name=str(shape.name),
        )
    if tag == "graphicFrame":
        return _graphic_item(shape, box, part)
    if getattr(shape, "has_text_frame", False) and shape.has_text_frame:
        return _text_item(shape, box, _placeholder_type(shape), part)
    return None


def shape_items(shapes: Iterable[Any], part: Any, place: Place = _identity) -> list[ShapeItem]:
    """Every readable shape of a shape tree, in tree order; one that fails is skipped, logged."""
    items = []
    for shape in shapes:
        try:
            item = shape_item(shape, part, place)
        except Exception as exc:  # one odd shape must not cost the slide its other shapes
            logger.warning("shape %r not readable: %s", getattr(shape, "name", "?"), exc)
            continue
        if item is not None:
            items.append(item)
    return items


def _union(boxes: Iterable[BBox]) -> BBox:
    listed = list(boxes)
    return (
        min(b[0] for b in listed),
        min(b[1] for b in listed),
        max(b[2] for b in listed),
        max(b[3] for b in listed),
    )
