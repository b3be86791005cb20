"""The page cache survives upgrades: a row written by another build is not served, and a row
that does not decode is a miss (the page is parsed again), never an exception."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from adversarial.documents import text_pdf
from pagereader.pipeline import aparse
from pagereader.reuse.cache import PageCache


def _parse(pdf: Path, db: Path) -> str:
    cache = PageCache(db)
    try:
        result = asyncio.run(aparse(pdf, cache=cache))
    finally:
        cache.close()
    assert result.status == "ok", result.errors
    return result.markdown


def test_garbled_rows_are_misses(tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "deck.pdf", pages=2, title="Cached")
    db = tmp_path / "cache.sqlite"
    first = _parse(pdf, db)
    with sqlite3.connect(db) as conn:
        conn.execute('UPDATE pages SET result = \'{"index": 1, "blocks": "old"}\'')
    assert _parse(pdf, db) == first
    with sqlite3.connect(db) as conn:  # the bad rows were replaced by good ones
        rows = [row[0] for row in conn.execute("SELECT result FROM pages")]
    assert len(rows) == 2 and all('"blocks": "old"' not in row for row in rows)


def test_rows_of_another_build_are_not_served(tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "deck.pdf", pages=1, title="Fresh")
    db = tmp_path / "cache.sqlite"
    _parse(pdf, db)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE pages SET build = 'older', result = replace(result, 'Fresh', 'Stale')")
    assert "Fresh page 1" in _parse(pdf, db)


def test_cache_of_an_older_layout_is_replaced(tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "deck.pdf", pages=1, title="Upgraded")
    db = tmp_path / "cache.sqlite"
    with sqlite3.connect(db) as conn:  # the table as builds before build keys wrote it
        conn.execute(
            "CREATE TABLE pages (file_sha256 TEXT NOT NULL, options_sha256 TEXT NOT NULL, "
            "page INTEGER NOT NULL, result TEXT NOT NULL, "
            "PRIMARY KEY (file_sha256, options_sha256, page))"
        )
    assert "Upgraded page 1" in _parse(pdf, db)
    assert "Upgraded page 1" in _parse(pdf, db)


def test_a_file_that_is_no_database(tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "deck.pdf", pages=1, title="Again")
    db = tmp_path / "cache.sqlite"
    db.write_bytes(b"not a database at all" * 100)
    assert "Again page 1" in _parse(pdf, db)
    assert (tmp_path / "cache.sqlite.broken").exists()
