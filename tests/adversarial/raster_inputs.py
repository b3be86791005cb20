"""Files that ask for huge rasters, made by code: PNGs whose header declares 8000 or 9000 pixels
a side at 50 DPI (tens of KB, streamed row by row so the test never holds the pixels), PDFs of
one page 5000 or 14400 points wide (about 1.5 KB), one of them a page-sized ruled table, and a
scan of that table."""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

_INCH_PER_METRE = 39.3701


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def write_big_png(path: Path, side: int, dpi: int, *, color: bool = False, bands: int = 12) -> Path:
    """A white PNG of ``side`` x ``side`` with black bars, declared at ``dpi``: 1-bit grey, or
    8-bit RGB with ``color``."""
    ppm = round(dpi * _INCH_PER_METRE)
    depth, kind, row_bytes = (8, 2, side * 3) if color else (1, 0, (side + 7) // 8)
    header = struct.pack(">IIBBBBB", side, side, depth, kind, 0, 0, 0)
    white = b"\x00" + b"\xff" * row_bytes
    dark = row_bytes // 2 - (row_bytes // 2) % 3
    bar = b"\x00" + b"\xff" * (row_bytes // 8 - (row_bytes // 8) % 3) + b"\x00" * dark
    bar += b"\xff" * (row_bytes - len(bar) + 1)
    packer = zlib.compressobj(9)
    idat = bytearray()
    period = max(1, side // bands)
    for y in range(side):
        idat += packer.compress(bar if y % period < max(1, period // 20) else white)
    idat += packer.flush()
    data = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
    data += _chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1))
    data += _chunk(b"IDAT", bytes(idat)) + _chunk(b"IEND", b"")
    path.write_bytes(data)
    return path


def write_big_pdf(path: Path, side_pt: float) -> Path:
    """One square page ``side_pt`` points wide with a heading and a line of text."""
    canvas = Canvas(str(path), pagesize=(side_pt, side_pt), pageCompression=1)
    canvas.setFont("Helvetica-Bold", side_pt / 40)
    canvas.drawString(side_pt / 10, side_pt * 0.8, "Quarterly poster")
    canvas.setFont("Helvetica", side_pt / 80)
    canvas.drawString(side_pt / 10, side_pt * 0.6, "Revenue grew in every region this year.")
    canvas.showPage()
    canvas.save()
    return path


def write_ruled_table_pdf(path: Path, side_pt: float, rows: int = 12, cols: int = 6) -> Path:
    """One square page ``side_pt`` points wide, most of it a ruled table with a word per cell."""
    canvas = Canvas(str(path), pagesize=(side_pt, side_pt), pageCompression=1)
    canvas.setFont("Helvetica-Bold", side_pt / 50)
    canvas.drawString(side_pt * 0.06, side_pt * 0.94, "Regional table")
    x0, y0, x1, y1 = side_pt * 0.06, side_pt * 0.06, side_pt * 0.94, side_pt * 0.9
    canvas.setLineWidth(side_pt / 1250)
    for i in range(rows + 1):
        y = y0 + (y1 - y0) * i / rows
        canvas.line(x0, y, x1, y)
    for j in range(cols + 1):
        x = x0 + (x1 - x0) * j / cols
        canvas.line(x, y0, x, y1)
    canvas.setFont("Helvetica", side_pt / 80)
    for i in range(rows):
        for j in range(cols):
            x = x0 + (x1 - x0) * j / cols + side_pt / 120
            y = y1 - (y1 - y0) * (i + 0.6) / rows
            canvas.drawString(x, y, f"R{i}C{j}")
    canvas.showPage()
    canvas.save()
    return path


_RASTERISE = """
import sys
import pypdfium2
from PIL import Image
pdf, png, side, dpi = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
page = pypdfium2.PdfDocument(pdf)[0]
image = page.render(scale=side / page.get_width(), rev_byteorder=True).to_pil()
Image.MAX_IMAGE_PIXELS = None
image.save(png, dpi=(dpi, dpi), compress_level=1)
"""


def write_scan_of(pdf: Path, path: Path, side: int, dpi: int) -> Path:
    """An RGB PNG of the PDF's first page, ``side`` pixels wide, declared at ``dpi``; drawn in
    a child process so the pixels never sit in the test's own memory."""
    subprocess.run(
        [sys.executable, "-c", _RASTERISE, str(pdf), str(path), str(side), str(dpi)],
        check=True,
        timeout=300,
    )
    return path
