"""The C heap's settings for a parsing process, set once at its start.

The models' working memory is many tensors of tens of megabytes, allocated and freed by several
threads per page. With glibc's defaults each thread gets an arena of its own (up to eight per
core), and a block freed in one arena is of no use to a thread allocating in another: an
8000-pixel scan held 1.2-1.4 GB resident for 0.88 GB of live allocations. Two arenas shared by
every thread bring that to 1.1 GB, and the sample documents' peak from 790 to 640 MB, at no
measured cost in CPU time. A fixed mapping threshold (``M_MMAP_THRESHOLD``) would lower the
peak further but costs 5-35% more CPU (every block mapped afresh is zeroed by the kernel), so
it is left to glibc.

A value the user set in the environment (``MALLOC_ARENA_MAX``) is left as it
is; on a C library other than glibc nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import platform

ARENA_MAX = 2
"""Arenas shared by every thread (glibc's ``M_ARENA_MAX``)."""
_M_ARENA_MAX = -8
_SETTINGS = (("MALLOC_ARENA_MAX", _M_ARENA_MAX, ARENA_MAX),)


def bound_heap() -> dict[str, int]:
    """Apply the settings above to this process; returns those applied, by their environment
    variable's name. Call it before the threads that run the models start."""
    if platform.libc_ver()[0] != "glibc":
        return {}
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return {}
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    applied: dict[str, int] = {}
    for variable, option, value in _SETTINGS:
        if variable not in os.environ and mallopt(option, value) == 1:
            applied[variable] = value
    return applied
