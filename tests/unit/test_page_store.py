"""The cross-document page store on real SQLite: keys, self-exclusion, rows that do not decode,
a writer killed mid-write, several writing processes, and a lock held by another process."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from pagereader.reuse.page_store import MemoryPages, PageStore
from pagereader.types import Block, BlockResult, ErrorItem, PageResult, TextLine

SRC = Path(__file__).resolve().parents[2] / "src"


def _page(index: int, text: str) -> PageResult:
    line = TextLine(text=text, bbox=(10.0, 10.0, 200.0, 30.0))
    block = Block(kind="text", bbox=(10.0, 10.0, 200.0, 30.0), lines=(line,))
    return PageResult(
        index=index, width=720.0, height=540.0, blocks=(BlockResult(block=block, text=text),)
    )


def test_found_by_every_digest_never_itself(tmp_path: Path) -> None:
    store = PageStore(tmp_path / "pages.sqlite")
    page = _page(3, "Agenda")
    store.keep("r1", "l1", "o1", "a.pdf", page)
    found = store.find("r1", "l1", "o1", "b.pdf", 5)
    assert found is not None
    assert (found.source, found.page, found.result) == ("a.pdf", 3, page)
    assert store.find("r1", "l1", "o1", "a.pdf", 3) is None  # the page itself
    assert store.find("r1", "l1", "o2", "b.pdf", 5) is None  # other options
    assert store.find("r1", "l2", "o1", "b.pdf", 5) is None  # other text layer
    assert store.find("r2", "l1", "o1", "b.pdf", 5) is None  # other pixels
    store.keep("r1", "l1", "o1", "c.pdf", _page(1, "Agenda"))  # the first page read stays
    again = store.find("r1", "l1", "o1", "d.pdf", 1)
    assert again is not None and again.source == "a.pdf"
    failed = page.model_copy(
        update={"errors": (ErrorItem(file="e.pdf", stage="recognize", message="x"),)}
    )
    store.keep("r9", "l1", "o1", "e.pdf", failed)
    store.keep("r8", "l1", "o1", "e.pdf", page.model_copy(update={"duplicate_of": 1}))
    assert store.count() == 1
    store.close()

    reopened = PageStore(tmp_path / "pages.sqlite")
    assert reopened.find("r1", "l1", "o1", "b.pdf", 5) is not None
    assert reopened.reused == 1
    reopened.close()


def test_rows_that_do_not_decode_are_misses_and_dropped(tmp_path: Path) -> None:
    path = tmp_path / "pages.sqlite"
    store = PageStore(path)
    store.keep("r1", "l", "o", "a.pdf", _page(1, "one"))
    store.keep("r2", "l", "o", "a.pdf", _page(2, "two"))
    store.keep("r3", "l", "o", "a.pdf", _page(3, "three"))
    with sqlite3.connect(path) as db:
        text = db.execute("SELECT result FROM shared_pages WHERE raster_sha256='r1'").fetchone()[0]
        db.execute("UPDATE shared_pages SET result=? WHERE raster_sha256='r1'", (text[:40],))
        db.execute("UPDATE shared_pages SET result=? WHERE raster_sha256='r2'", (text,))
    assert store.find("r1", "l", "o", "b.pdf", 1) is None  # truncated JSON
    assert store.find("r2", "l", "o", "b.pdf", 1) is None  # page 1's result in page 2's row
    found = store.find("r3", "l", "o", "b.pdf", 1)
    assert found is not None and found.result.blocks[0].text == "three"
    assert store.count() == 1
    store.close()


def test_a_file_that_is_not_sqlite_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "pages.sqlite"
    path.write_bytes(b"not a database at all, just bytes" * 100)
    store = PageStore(path)
    assert store.count() == 0
    assert (tmp_path / "pages.sqlite.broken").is_file()
    store.close()


_WRITER = """
import sys, time
from pathlib import Path
from pagereader.reuse.page_store import PageStore
from pagereader.types import PageResult
store = PageStore(Path(sys.argv[1]))
big = "x" * 200_000
def stop_inside_the_write():
    print("inside the write of r3", flush=True)
    time.sleep(3600)  # killed here: the INSERT of r3 has begun and nothing has committed it
for n in range(4):
    if n == 3:
        store._db.set_progress_handler(stop_inside_the_write, 1)
    page = PageResult(index=1, width=1.0, height=1.0, markdown=f"{n}:{big}")
    store.keep(f"r{n}", "l", "o", "a.pdf", page)
"""


def test_killed_mid_write_never_leaves_a_corrupt_page(tmp_path: Path) -> None:
    """The writer stops itself inside the SQLite statement that writes its fourth page (a
    progress handler that blocks) and says so; the kill lands there, not after a guessed sleep.
    The three committed pages stay whole and the fourth is not there at all."""
    path = tmp_path / "pages.sqlite"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    writer = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(path)], env=env, stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None
    assert writer.stdout.readline().strip() == "inside the write of r3"
    writer.send_signal(signal.SIGKILL)
    writer.wait()

    store = PageStore(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        keys = [row[0] for row in db.execute("SELECT raster_sha256 FROM shared_pages")]
    assert sorted(keys) == ["r0", "r1", "r2"]
    for key in keys:
        found = store.find(key, "l", "o", "b.pdf", 9)
        assert found is not None, key
        number, filler = found.result.markdown.split(":")
        assert f"r{number}" == key and filler == "x" * 200_000
    store.close()


_MANY = """
import sys
from pathlib import Path
from pagereader.reuse.page_store import PageStore
from pagereader.types import Block, BlockResult, PageResult, TextLine
path, worker, count = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
store = PageStore(path, busy_timeout_s=0.01)
for n in range(count):
    text = f"{worker}/{n}"
    line = TextLine(text=text, bbox=(10.0, 10.0, 200.0, 30.0))
    block = Block(kind="text", bbox=(10.0, 10.0, 200.0, 30.0), lines=(line,))
    page = PageResult(
        index=n + 1, width=720.0, height=540.0, blocks=(BlockResult(block=block, text=text),)
    )
    store.keep(f"r{worker}-{n}", "l", "o", f"w{worker}.pdf", page)
store.close()
"""


def test_several_processes_write_one_store(tmp_path: Path) -> None:
    path = tmp_path / "pages.sqlite"
    PageStore(path).close()
    processes = [
        subprocess.Popen([sys.executable, "-c", _MANY, str(path), str(worker), "40"])
        for worker in range(3)
    ]
    for process in processes:
        assert process.wait(120) == 0
    store = PageStore(path)
    assert store.count() == 120
    found = store.find("r2-39", "l", "o", "x.pdf", 1)
    assert found is not None and found.result.blocks[0].text == "2/39"
    assert found.source == "w2.pdf"
    store.close()


def test_a_write_waits_out_a_lock_held_past_the_busy_timeout(tmp_path: Path) -> None:
    path = tmp_path / "pages.sqlite"
    store = PageStore(path, busy_timeout_s=0.01)
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("INSERT INTO shared_pages VALUES ('held', 'l', 'o', 'b', 's', 1, '{}')")
    release = threading.Timer(0.6, lambda: holder.execute("ROLLBACK"))
    release.start()
    started = time.perf_counter()
    store.keep("r1", "l", "o", "a.pdf", _page(1, "kept"))
    waited = time.perf_counter() - started
    release.join()
    holder.close()
    assert waited >= 0.5
    found = store.find("r1", "l", "o", "b.pdf", 2)
    assert found is not None and found.result.blocks[0].text == "kept"
    store.close()


def test_memory_pages_keep_the_most_recently_used() -> None:
    pages = MemoryPages(limit=2)
    pages.keep("r1", "l", "o", "a.pdf", _page(1, "one"))
    pages.keep("r2", "l", "o", "a.pdf", _page(2, "two"))
    assert pages.find("r1", "l", "o", "a.pdf", 1) is None  # itself
    assert pages.find("r1", "l", "o", "b.pdf", 4) is not None  # r1 now most recent
    pages.keep("r3", "l", "o", "a.pdf", _page(3, "three"))  # r2 goes
    assert pages.find("r2", "l", "o", "b.pdf", 5) is None
    found = pages.find("r1", "l", "o", "b.pdf", 6)
    assert found is not None and (found.source, found.page) == ("a.pdf", 1)
    assert pages.find("r3", "l", "p", "b.pdf", 7) is None  # other options
    assert pages.reused == 2
