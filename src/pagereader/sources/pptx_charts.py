"""A PPTX chart as data: its title and its categories, series and values as a table.

The values are the chart part's own cached numbers (``c:numCache``), read as the strings the
file stores, so a chart comes out exact: no OCR of bars and no float rounding.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from lxml import etree

from pagereader.types import Table, TableCell

logger = logging.getLogger(__name__)

_C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
_NS = {"c": _C}


def _xpath(element: Any, path: str) -> list[Any]:
    """lxml's XPath with the chart namespace (python-pptx's elements take no namespaces)."""
    return list(etree.XPath(path, namespaces=_NS)(element))


@dataclass(frozen=True)
class ChartData:
    """What a chart says: its title, kind (``bar``, ``line``, ...) and data table."""

    title: str
    kind: str
    table: Table | None


def _points(parent: Any, path: str) -> dict[int, str]:
    """``c:pt`` values by index under ``parent`` (a series element) at ``path``."""
    out: dict[int, str] = {}
    for cache in _xpath(parent, path)[:1]:
        for pt in _xpath(cache, "./c:pt"):
            value = _xpath(pt, "./c:v/text()")
            if value:
                out[int(pt.get("idx", "0"))] = str(value[0]).strip()
    return out


def _categories(ser: Any) -> dict[int, str]:
    for path in (
        "./c:cat//c:strCache",
        "./c:cat//c:numCache",
        "./c:cat//c:multiLvlStrCache/c:lvl",
        "./c:xVal//c:numCache",
        "./c:xVal//c:strCache",
    ):
        found = _points(ser, path)
        if found:
            return found
    return {}


def _values(ser: Any) -> dict[int, str]:
    for path in ("./c:val//c:numCache", "./c:yVal//c:numCache", "./c:val//c:numLit"):
        found = _points(ser, path)
        if found:
            return found
    return {}


def _series_name(ser: Any, number: int) -> str:
    texts = _xpath(ser, "./c:tx//c:v/text()")
    return str(texts[0]).strip() if texts else f"Series {number}"


def _number(text: str) -> str:
    """A cached value as written, with a float's spurious tail trimmed (120.0 -> 120)."""
    try:
        value = float(text)
    except ValueError:
        return text
    if value.is_integer() and abs(value) < 1e15 and "e" not in text.lower():
        return str(int(value))
    return text


def chart_table(chart_space: Any) -> Table | None:
    """The chart's data: a header row (an empty corner, then the series names) and one row a
    category; None when the chart part holds no cached values."""
    series = _xpath(chart_space, ".//c:plotArea/*/c:ser")
    columns: list[tuple[str, dict[int, str]]] = []
    categories: dict[int, str] = {}
    for number, ser in enumerate(series, start=1):
        values = _values(ser)
        if not values:
            continue
        columns.append((_series_name(ser, number), values))
        for idx, label in _categories(ser).items():
            categories.setdefault(idx, label)
    if not columns:
        return None
    indices = sorted(set(categories) | {i for _, values in columns for i in values})
    cells = [TableCell(row=0, col=0, text="")]
    cells += [TableCell(row=0, col=c, text=name) for c, (name, _) in enumerate(columns, 1)]
    for r, idx in enumerate(indices, start=1):
        cells.append(TableCell(row=r, col=0, text=_number(categories.get(idx, str(idx + 1)))))
        for c, (_, values) in enumerate(columns, start=1):
            cells.append(TableCell(row=r, col=c, text=_number(values.get(idx, ""))))
    return Table(rows=len(indices) + 1, cols=len(columns) + 1, cells=tuple(cells), header_rows=1)


def _title(chart: Any) -> str:
    try:
        if chart.has_title and chart.chart_title.has_text_frame:
            return str(chart.chart_title.text_frame.text).strip()
    except Exception:  # a title python-pptx cannot read is only a missing title
        return ""
    return ""


def _kind(chart_space: Any) -> str:
    plots = _xpath(chart_space, ".//c:plotArea/*[c:ser]")
    if not plots:
        return "chart"
    name = str(plots[0].tag).rsplit("}", 1)[-1]
    return name.removesuffix("Chart").removesuffix("3D").lower() or "chart"


def read_chart(graphic_frame: Any) -> ChartData | None:
    """The chart of a python-pptx graphic frame, or None when it has none or it is unreadable."""
    try:
        chart = graphic_frame.chart
        space = chart._chartSpace
    except Exception as exc:  # a damaged chart part: the slide goes on without its data
        logger.warning("chart %r not readable: %s", getattr(graphic_frame, "name", ""), exc)
        return None
    return ChartData(title=_title(chart), kind=_kind(space), table=chart_table(space))
