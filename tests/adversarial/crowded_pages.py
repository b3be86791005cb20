"""PDF pages crowded with text objects, made by code: one-point "a"s in rows of 500, each its
own text object (``BT /F1 1 Tf x y Td (a) Tj ET``), Flate-compressed so that 100,000 of them
fit in about 300 KB. Pages differ (each is shifted down by its index), so that none is read
as a copy of another."""

from __future__ import annotations

import zlib
from pathlib import Path

ROW = 500


def _page_content(objects: int, shift: float) -> bytes:
    top = 780 - shift
    parts = [
        b"BT /F1 1 Tf %.1f %.1f Td (a) Tj ET\n" % (20 + (n % ROW) * 1.1, top - (n // ROW) * 3.8)
        for n in range(objects)
    ]
    return zlib.compress(b"".join(parts), 9)


def crowded_pdf(path: Path, objects: int = 100_000, pages: int = 1) -> Path:
    """``pages`` pages of ``objects`` one-character text objects each."""
    kids = b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(pages))
    bodies = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % pages,
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i in range(pages):
        content = _page_content(objects, 2.0 * i)
        bodies.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
            b"/Resources << /Font << /F1 3 0 R >> >> >>" % (5 + 2 * i)
        )
        bodies.append(
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(content)
            + content
            + b"\nendstream"
        )
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(bodies, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(bodies) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(bodies) + 1,
        xref,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(out))
    return path
