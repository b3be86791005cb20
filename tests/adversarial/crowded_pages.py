"""PDF pages crowded with text objects, made by code: one-point "a"s in rows of 500, each its
own text object (``BT /F1 1 Tf x y Td (a) Tj ET``), Flate-compressed so that 100,000 of them
fit in about 300 KB. Pages differ (each is shifted down by its index), so that none is read
as a copy of another."""

from __future__ import annotations

import zlib
from pathlib import Path

from adversarial.documents import pdf_of_objects

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
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pdf_of_objects(bodies))
    return path
