"""The heap bound, read back from glibc itself: ``malloc_info`` lists one heap per arena."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

from pagereader.heap import ARENA_MAX

pytestmark = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's allocator")

# eight threads each allocate and hold memory at once; then glibc writes its arenas as XML
_PROBE = """
import ctypes, sys, tempfile, threading
from pagereader.heap import bound_heap
print(bound_heap())
barrier = threading.Barrier(8)
held = []
def work():
    barrier.wait()
    held.append([bytearray(4096) for _ in range(64)])
threads = [threading.Thread(target=work) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
libc = ctypes.CDLL("libc.so.6")
libc.fopen.restype = ctypes.c_void_p
libc.malloc_info.argtypes = (ctypes.c_int, ctypes.c_void_p)
libc.fclose.argtypes = (ctypes.c_void_p,)
with tempfile.NamedTemporaryFile(suffix=".xml") as f:
    fp = libc.fopen(f.name.encode(), b"w")
    libc.malloc_info(0, fp)
    libc.fclose(fp)
    print(open(f.name).read().count("<heap nr="))
"""


def _arenas(bound: bool, env: dict[str, str] | None = None) -> tuple[str, int]:
    code = _PROBE if bound else _PROBE.replace("print(bound_heap())", "print({})")
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env={**{k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}, **(env or {})},
    )
    applied, count = done.stdout.split("\n")[:2]
    return applied, int(count)


def test_threads_share_two_arenas_once_bounded() -> None:
    applied, count = _arenas(bound=True)
    assert applied == "{'MALLOC_ARENA_MAX': 2}"
    assert count == ARENA_MAX


def test_without_the_bound_each_thread_gets_an_arena() -> None:
    applied, count = _arenas(bound=False)
    assert applied == "{}"
    assert count > ARENA_MAX


def test_a_value_set_in_the_environment_is_kept() -> None:
    applied, count = _arenas(bound=True, env={"MALLOC_ARENA_MAX": "4"})
    assert applied == "{}"
    assert count == 4
