"""Every stream of a PDF inflated and counted before PDFium opens the file.

PDFium decodes a whole stream into memory before it looks at it (a page's content, an object
stream, an image), with no limit, so a one-megabyte PDF can ask it for a gibibyte. The file is
read here as bytes: each ``stream`` keyword after a dictionary starts a stream, its /Filter
chain is decoded stage by stage in pieces and every stage is counted against the limits of
sources/limits.py. A stream is found whatever the cross-reference table says (an unreferenced
one is counted too), and its end is where its own encoding ends, never its /Length.

Not decoded, so not counted: encrypted streams (their bytes are ciphertext), LZW and the image
codecs (DCT, JPX, JBIG2, CCITT; their pixels are a page-raster matter), embedded files (which
PDFium does not decode while reading pages).
"""

from __future__ import annotations

import base64
import binascii
import mmap
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from pagereader.sources.limits import InflateMeter, inflate

_READ = 1024 * 1024
_WINDOW = 65536  # how far before ``stream`` its dictionary may begin
_STREAM = re.compile(rb"(?<![A-Za-z])stream(?:\r\n|\n|\r)")
_OBJECT_NUMBER = re.compile(rb"(\d+)\s+(\d+)\s*$")
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_FILTER = re.compile(rb"/Filter\s*(\[[^\]]*\]|/[^\s/\[\]<>()%]+|\d)")
_NAME = re.compile(rb"/([^\s/\[\]<>()%]+)")
_EMBEDDED_FILE = re.compile(rb"/Type\s*/EmbeddedFile(?![^\s/\[\]<>()%])")
_NOT_HEX = re.compile(rb"[^0-9A-Fa-f]")
_SPACE = re.compile(rb"\s+")

Decoder = Callable[[Iterable[bytes]], Iterator[bytes]]


def check_streams(path: Path, meter: InflateMeter) -> None:
    """Decode every stream of the PDF at ``path`` in pieces, counting each in ``meter``, which
    raises InflatesTooLargeError at the first past a limit."""
    with path.open("rb") as handle:
        if path.stat().st_size == 0:
            return
        with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            for found in _STREAM.finditer(data):
                _check_stream(data, found.start(), found.end(), meter)


def _check_stream(data: mmap.mmap, keyword: int, start: int, meter: InflateMeter) -> None:
    """Count the stream whose data begins at ``start`` (``stream`` being at ``keyword``)."""
    close = data.rfind(b">>", max(0, keyword - _WINDOW), keyword)
    if close < 0 or data[close + 2 : keyword].strip():
        return  # the word "stream" outside a stream's dictionary
    opened = data.rfind(b"obj", max(0, keyword - _WINDOW), close)
    begin = opened + 3 if opened >= 0 else max(0, keyword - _WINDOW)
    dictionary = _NAME_ESCAPE.sub(
        lambda m: bytes.fromhex(m.group(1).decode()), data[begin : close + 2]
    )
    if _EMBEDDED_FILE.search(dictionary):
        return
    decoders = _decoders(dictionary, data[start : start + 2])
    if not decoders:
        return
    number = _OBJECT_NUMBER.search(data[max(0, opened - 24) : opened]) if opened > 0 else None
    what = f"stream {int(number.group(1))} {int(number.group(2))} R" if number else "a stream"
    pieces: Iterable[bytes] = _chunks(data, start)
    for decode in decoders[:-1]:
        pieces = meter.watch(decode(pieces), what)
    meter.add(decoders[-1](pieces), what)


def _decoders(dictionary: bytes, head: bytes) -> list[Decoder]:
    """The decoders of the stream's filter chain, up to the first that is not decoded here."""
    found = _FILTER.search(dictionary)
    if found is None:
        return []
    value = found.group(1)
    if value[:1].isdigit():  # an indirect /Filter: take the data for what it looks like
        return [inflate] if _looks_zlib(head) else []
    decoders: list[Decoder] = []
    for name in _NAME.findall(value):
        decoder = _DECODERS.get(name)
        if decoder is None:
            break
        decoders.append(decoder)
    return decoders


def _looks_zlib(head: bytes) -> bool:
    """A zlib header: deflate, a window of at most 32 KiB, and its check bits right."""
    return (
        len(head) == 2
        and head[0] & 0x0F == 8
        and head[0] >> 4 <= 7
        and int.from_bytes(head) % 31 == 0
    )


def _chunks(data: mmap.mmap, start: int) -> Iterator[bytes]:
    """The file from ``start`` to its end, a mebibyte at a time (a decoder stops at its end)."""
    for offset in range(start, len(data), _READ):
        yield data[offset : offset + _READ]


def _ascii_hex(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """ASCIIHexDecode: hex digits up to ``>``, whitespace ignored, an odd last digit padded."""
    carry = b""
    for chunk in chunks:
        end = chunk.find(b">")
        digits = carry + _NOT_HEX.sub(b"", chunk if end < 0 else chunk[:end])
        even = len(digits) // 2 * 2
        yield bytes.fromhex(digits[:even].decode())
        carry = digits[even:]
        if end >= 0:
            break
    if carry:
        yield bytes.fromhex((carry + b"0").decode())


def _ascii85(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """ASCII85Decode: groups of five up to ``~>``, ``z`` for four zero bytes; stops quietly
    at damaged data, as :func:`inflate` does."""
    carry = b""
    try:
        for chunk in chunks:
            end = chunk.find(b"~")
            text = carry + _SPACE.sub(b"", chunk if end < 0 else chunk[:end]).replace(
                b"z", b"!!!!!"
            )
            whole = len(text) // 5 * 5
            yield base64.a85decode(text[:whole])
            carry = text[whole:]
            if end >= 0:
                break
        if carry:
            yield base64.a85decode(carry)
    except (ValueError, binascii.Error):
        return


def _run_length(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """RunLengthDecode: a length byte, then that many literal bytes or one byte repeated;
    128 ends the data."""
    buffer = b""
    for chunk in chunks:
        buffer += chunk
        out = bytearray()
        at = 0
        while at < len(buffer):
            length = buffer[at]
            if length == 128:
                yield bytes(out)
                return
            if length < 128:
                if at + 1 + length + 1 > len(buffer):
                    break
                out += buffer[at + 1 : at + 2 + length]
                at += 2 + length
            else:
                if at + 2 > len(buffer):
                    break
                out += buffer[at + 1 : at + 2] * (257 - length)
                at += 2
            if len(out) >= _READ:
                yield bytes(out)
                out.clear()
        buffer = buffer[at:]
        yield bytes(out)


_DECODERS: dict[bytes, Decoder] = {
    b"FlateDecode": inflate,
    b"Fl": inflate,
    b"ASCIIHexDecode": _ascii_hex,
    b"AHx": _ascii_hex,
    b"ASCII85Decode": _ascii85,
    b"A85": _ascii85,
    b"RunLengthDecode": _run_length,
    b"RL": _run_length,
}
