"""A copy of an office package with every reference to something outside it taken out.

An untrusted DOCX, PPTX or ODF file can name pictures, templates, OLE objects, media and
included documents by URL (``file:///home/...``, ``http://127.0.0.1:8080/...``) instead of
carrying them; a renderer given the file fetches them, and what it fetched ends up in the
pages pagereader reads. So no renderer is ever given the file itself: it gets a copy in which

- every external relationship of an OOXML package is gone (a linked picture points to a blank
  picture inside the package instead, so the slide keeps its layout), hyperlinks excepted:
  a hyperlink is a link for the reader, never fetched;
- Word fields that load something (``INCLUDEPICTURE``, ``INCLUDETEXT``, ``LINK``, ``DDE``, ...)
  keep their shown result but lose their instruction;
- ODF ``xlink:href`` references that leave the package (a scheme, an absolute path, ``..``)
  and DDE connections are removed, text hyperlinks excepted;
- embedded packages (a chart's workbook, an embedded document) are cleaned the same way.

Each removal is a warning naming the part and the target, which was never fetched. This is
one of two layers: the renderer also runs without network and without the rest of the file
system where the platform allows it (sources/office_sandbox.py).
"""

from __future__ import annotations

import io
import re
import shutil
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from lxml import etree

_PACKAGE_NAMESPACE = "http://schemas.openxmlformats.org/package/2006/relationships"
_TYPES_NAMESPACE = "http://schemas.openxmlformats.org/package/2006/content-types"
_CONTENT_TYPES = "[Content_Types].xml"
_RELATIONSHIP = f"{{{_PACKAGE_NAMESPACE}}}Relationship"
_WORD = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_ODF_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_ODF_DRAW = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
_ODF_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_ODF_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
# elements whose xlink:href is a link for the reader to follow, never loaded by a renderer
_ODF_HYPERLINKS = frozenset({f"{{{_ODF_TEXT}}}a", f"{{{_ODF_DRAW}}}a"})
# ODF elements that pull data from another document when loaded
_ODF_LIVE_LINKS = frozenset(
    {
        f"{{{_ODF_OFFICE}}}dde-source",
        f"{{{_ODF_TEXT}}}dde-connection-decl",
        f"{{{_ODF_TABLE}}}dde-link",
        f"{{{_ODF_TABLE}}}table-source",
        f"{{{_ODF_TEXT}}}section-source",
    }
)
# Word field codes that load a file or URL when the document is opened or updated
_LOADING_FIELDS = frozenset(
    {"INCLUDEPICTURE", "INCLUDETEXT", "INCLUDE", "IMPORT", "LINK", "DDE", "DDEAUTO", "RD"}
)
_SCHEME = re.compile(r"^\s*[A-Za-z][A-Za-z0-9+.\-]*:")
_NESTED_SUFFIXES = frozenset(
    {".docx", ".docm", ".pptx", ".pptm", ".xlsx", ".xlsm", ".odt", ".odp", ".ods", ".odg"}
)
_MAX_NESTING = 2
_MAX_TARGET_SHOWN = 160
# a 1x1 white PNG: what a linked picture shows instead of its target
_BLANK_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8ffff3f0005fe02fea7d6a4b50000000049454e44ae426082"
)
_BLANK_PART = "media/pagereader-unlinked.png"
_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, recover=False
)


@dataclass
class _Report:
    """What was taken out, as warning lines, and whether a blank picture is needed."""

    warnings: list[str] = field(default_factory=list)
    needs_blank: bool = False

    def removed(self, part: str, what: str, target: str) -> None:
        shown = target if len(target) <= _MAX_TARGET_SHOWN else target[:_MAX_TARGET_SHOWN] + "..."
        self.warnings.append(f"{part}: {what} {shown!r} not loaded (an outside reference)")


def sanitize_package(path: Path, dest: Path) -> tuple[str, ...]:
    """Write to ``dest`` a copy of the zip package ``path`` without outside references;
    return a warning for each one taken out. The package's limits were checked already
    (office.check_package): parts are read whole here."""
    report = _Report()
    with zipfile.ZipFile(path) as package, zipfile.ZipFile(dest, "w") as out:
        _copy(package, out, report, prefix="", depth=0)
    return tuple(report.warnings)


def is_outside(target: str) -> bool:
    """Whether a reference leaves its package: a URL scheme, an absolute or UNC path, a
    Windows drive, or a ``..`` that climbs out of the package's root."""
    value = target.strip().replace("\\", "/")
    if not value:
        return False
    if _SCHEME.match(value) or value.startswith("/"):
        return True
    depth = 0
    for segment in PurePosixPath(value).parts:
        depth += -1 if segment == ".." else (0 if segment == "." else 1)
        if depth < 0:
            return True
    return False


def _copy(
    package: zipfile.ZipFile, out: zipfile.ZipFile, report: _Report, prefix: str, depth: int
) -> None:
    """Every part of ``package`` into ``out``, cleaned; an OOXML package's content types go
    last, so that the blank picture a linked one now shows can be declared in them."""
    infos = package.infolist()
    names = {info.filename for info in infos}
    types = next((info for info in infos if info.filename == _CONTENT_TYPES), None)
    for info in infos:
        if info is types:
            continue
        name = info.filename
        clean = _cleaner(name, is_ooxml=types is not None)
        if clean is not None:
            out.writestr(info, clean(package.read(info), prefix + name, report))
        elif depth < _MAX_NESTING and PurePosixPath(name).suffix.lower() in _NESTED_SUFFIXES:
            out.writestr(info, _nested(package.read(info), report, prefix + name, depth + 1))
        else:
            with package.open(info) as source, out.open(info, "w") as target:
                shutil.copyfileobj(source, target)
    if types is None:
        return
    declared = package.read(types)
    if report.needs_blank and _BLANK_PART not in names:
        out.writestr(_BLANK_PART, _BLANK_PNG)
        declared = _with_png_type(declared)
    report.needs_blank = False
    out.writestr(types, declared)


def _with_png_type(data: bytes) -> bytes:
    """Content types that declare ``.png`` parts (a package without pictures may not)."""
    root = _parse(data, _CONTENT_TYPES)
    defaults = root.findall(f"{{{_TYPES_NAMESPACE}}}Default")
    if any(d.get("Extension", "").lower() == "png" for d in defaults):
        return data
    png = etree.SubElement(root, f"{{{_TYPES_NAMESPACE}}}Default")
    png.set("Extension", "png")
    png.set("ContentType", "image/png")
    root.insert(0, png)
    return _serialize(root)


def _nested(data: bytes, report: _Report, part: str, depth: int) -> bytes:
    """An embedded package, cleaned the same way (bytes kept as they are if it is no zip)."""
    if not zipfile.is_zipfile(io.BytesIO(data)):
        return data
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as package, zipfile.ZipFile(buffer, "w") as out:
        _copy(package, out, report, prefix=part + "!/", depth=depth)
    return buffer.getvalue()


_Cleaner = Callable[[bytes, str, _Report], bytes]


def _cleaner(name: str, is_ooxml: bool) -> _Cleaner | None:
    """The cleaning a part needs, or None for a part copied as it is."""
    lower = name.lower()
    if is_ooxml and lower.endswith(".rels"):
        return _clean_relationships
    if is_ooxml and lower.startswith("word/") and lower.endswith(".xml"):
        return _clean_word_fields
    if not is_ooxml and PurePosixPath(lower).name in {"content.xml", "styles.xml"}:
        return _clean_odf
    return None


def _parse(data: bytes, part: str) -> etree._Element:
    try:
        return etree.fromstring(data, _PARSER)
    except etree.XMLSyntaxError as exc:
        raise ValueError(f"part {part} is not well-formed XML ({exc})") from exc


def _serialize(root: etree._Element) -> bytes:
    return bytes(etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True))


def _clean_relationships(data: bytes, part: str, report: _Report) -> bytes:
    root = _parse(data, part)
    changed = False
    for relation in list(root.iter(_RELATIONSHIP)):
        target = relation.get("Target", "")
        external = relation.get("TargetMode", "").lower() == "external" or (
            _SCHEME.match(target) is not None or target.replace("\\", "/").startswith("//")
        )
        kind = relation.get("Type", "").rsplit("/", 1)[-1]
        if not external or kind == "hyperlink":
            continue
        changed = True
        if kind == "image":
            relation.set("Target", "/" + _BLANK_PART)
            relation.attrib.pop("TargetMode", None)
            report.needs_blank = True
            report.removed(part, "linked picture", target)
        else:
            root.remove(relation)
            report.removed(part, f"linked {kind or 'part'}", target)
    return _serialize(root) if changed else data


def _clean_word_fields(data: bytes, part: str, report: _Report) -> bytes:
    """Word fields that load something keep their last shown result, not their instruction.
    A complex field's instruction may be split over several runs: they are read together."""
    if not any(marker in data for marker in (b"instr", b"href", b"src")):
        return data
    root = _parse(data, part)
    changed = False
    for simple in root.iter(f"{{{_WORD}}}fldSimple"):
        instruction = simple.get(f"{{{_WORD}}}instr", "")
        if _loads(instruction):
            simple.set(f"{{{_WORD}}}instr", "")
            report.removed(part, "field", instruction.strip())
            changed = True
    # one entry per open complex field: its instruction's runs, or None once its result began
    open_fields: list[list[etree._Element] | None] = []
    for element in root.iter(f"{{{_WORD}}}fldChar", f"{{{_WORD}}}instrText"):
        if element.tag == f"{{{_WORD}}}instrText":
            if open_fields and open_fields[-1] is not None:
                open_fields[-1].append(element)
            continue
        kind = element.get(f"{{{_WORD}}}fldCharType")
        if kind == "begin":
            open_fields.append([])
        elif kind in {"separate", "end"} and open_fields:
            runs = open_fields.pop()
            if runs is not None:
                changed |= _blank_instruction(runs, part, report)
            if kind == "separate":
                open_fields.append(None)
    changed |= _clean_vml_links(root, part, report)
    return _serialize(root) if changed else data


def _blank_instruction(texts: list[etree._Element], part: str, report: _Report) -> bool:
    instruction = "".join(text.text or "" for text in texts)
    if not _loads(instruction):
        return False
    for text in texts:
        text.text = ""
    report.removed(part, "field", instruction.strip())
    return True


def _loads(instruction: str) -> bool:
    words = instruction.strip().split(None, 1)
    return bool(words) and words[0].upper() in _LOADING_FIELDS


def _clean_vml_links(root: etree._Element, part: str, report: _Report) -> bool:
    """Legacy VML pictures may carry their source as a literal ``href``/``src`` attribute."""
    changed = False
    for element in root.iter():
        for key in [k for k in element.attrib if etree.QName(k).localname in {"href", "src"}]:
            value = element.get(key, "")
            if is_outside(value):
                del element.attrib[key]
                report.removed(part, "linked source", value)
                changed = True
    return changed


def _clean_odf(data: bytes, part: str, report: _Report) -> bytes:
    root = _parse(data, part)
    changed = False
    for element in list(root.iter(*_ODF_LIVE_LINKS)):
        parent = element.getparent()
        if parent is not None:
            parent.remove(element)
            report.removed(part, "live link", element.get(_XLINK_HREF, "") or str(element.tag))
            changed = True
    for element in root.iter():
        target = element.get(_XLINK_HREF)
        if target is None or element.tag in _ODF_HYPERLINKS or not is_outside(target):
            continue
        del element.attrib[_XLINK_HREF]
        report.removed(part, f"linked {etree.QName(element).localname}", target)
        changed = True
    return _serialize(root) if changed else data
