"""Inputs made by code for the adversarial tests: small digital PDFs, one with a text layer
that maps glyphs to characters outside the Basic Multilingual Plane and to a lone surrogate."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

GOTHIC = "\U00010330\U00010331"  # GOTHIC LETTER AHSA, BAIRKAN


def text_pdf(path: Path, pages: int = 1, title: str = "Report") -> Path:
    """A digital PDF: on each page a title line and a sentence naming the page."""
    path.parent.mkdir(parents=True, exist_ok=True)
    canvas = Canvas(str(path), pagesize=(612, 792))
    for index in range(1, pages + 1):
        canvas.setFont("Helvetica-Bold", 20)
        canvas.drawString(72, 700, f"{title} page {index}")
        canvas.setFont("Helvetica", 12)
        canvas.drawString(72, 660, f"This sentence belongs to {title} and page {index}.")
        canvas.showPage()
    canvas.save()
    return path


_CMAP = b"""/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<00> <FF>
endcodespacerange
3 beginbfchar
<41> <D800DF30>
<42> <D800DF31>
<43> <D800>
endbfchar
endcmap
CMapName currentdict /CMap defineresource pop
end
end
"""


def _cmap(targets: dict[str, str]) -> bytes:
    """A ToUnicode CMap giving each one-byte code (a letter) the UTF-16 hex of its target."""
    chars = b"".join(
        b"<%02X> <%s>\n" % (ord(code), hex16.encode()) for code, hex16 in targets.items()
    )
    head, rest = _CMAP.split(b"3 beginbfchar\n")
    tail = rest.split(b"endbfchar", 1)[1]
    return head + b"%d beginbfchar\n" % len(targets) + chars + b"endbfchar" + tail


def mapped_pdf(path: Path, targets: dict[str, str], line: str) -> Path:
    """One page of ordinary text, then ``line`` (letters) drawn in a font whose ToUnicode map
    sends each letter to ``targets[letter]`` (UTF-16 hex, e.g. ``"0000"``, ``"202E"``)."""
    return _one_page_pdf(path, line.encode(), _cmap(targets))


def astral_pdf(path: Path, lone_surrogate: bool = False) -> Path:
    """One page: ``Gothic letters`` in plain Helvetica, then glyphs whose ToUnicode map gives
    U+10330 and U+10331 (written by PDF as UTF-16 surrogate pairs), and with
    ``lone_surrogate`` a glyph mapped to a bare high surrogate (a broken text layer)."""
    codes = "ABAB" + ("C" if lone_surrogate else "")
    return _one_page_pdf(path, codes.encode(), _CMAP)


def _one_page_pdf(path: Path, codes: bytes, cmap: bytes) -> Path:
    filler = b"".join(
        b"BT /F1 11 Tf 72 %d Td (Line %d of ordinary text keeps the text layer trusted.) Tj ET\n"
        % (600 - 16 * n, n)
        for n in range(8)
    )
    content = (
        b"BT /F1 18 Tf 72 700 Td (Gothic letters here) Tj ET\n"
        b"BT /F2 18 Tf 72 660 Td (" + codes + b") Tj ET\n" + filler
    )
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"endstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 7 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(cmap) + cmap + b"endstream",
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pdf_of_objects(objects))
    return path


def pdf_of_objects(objects: list[bytes]) -> bytes:
    """A PDF of numbered ``objects`` (1-based, the catalog first) with its cross-reference
    table: for inputs no PDF library would write."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)
