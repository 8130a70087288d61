"""glibc's allocator on a Dask worker: its mmap threshold given back the value glibc itself
would have grown it to, and the free heap that keeps given back once a sweep's runs are done.

Dask's nanny starts each worker with MALLOC_TRIM_THRESHOLD_ set (its setting
``distributed.nanny.pre-spawn-environ``), so that freed memory goes back to the system. Any
MALLOC_*_THRESHOLD_ variable also stops glibc from raising its mmap threshold as large blocks
are freed (mallopt(3)): it stays at 128 KiB, and every array above it is mapped anew and its
pages faulted in at each allocation, which a batch on a large board does every generation: its
runs then cost several times the processor time they cost in a local worker, and the Dask
sweep of results/scale would miss its goal. Raising the threshold to MMAP_THRESHOLD, glibc's
own ceiling for it on 64-bit systems, gives that time back; the trim threshold, which is what
Dask asks for, is left as Dask set it. With the threshold raised, what the arrays leave free
stays with the worker after the sweep, unless given back (``give_back``, glibc's malloc_trim),
which the sweep asks of every worker once its runs are done (gaqueens.runtime.cluster).
"""

from __future__ import annotations

import ctypes
import os
import sys

M_MMAP_THRESHOLD = -3  # mallopt's parameter number (glibc's malloc.h)
MMAP_THRESHOLD = 32 * 2**20  # glibc's DEFAULT_MMAP_THRESHOLD_MAX for 64-bit systems
_raised = False


def threshold_fixed(environ) -> bool:
    """Whether the environment fixes glibc's thresholds (a MALLOC_TRIM_THRESHOLD_, as Dask's
    nanny sets) without choosing the mmap threshold itself (MALLOC_MMAP_THRESHOLD_, which is
    then the user's to keep)."""
    return "MALLOC_TRIM_THRESHOLD_" in environ and "MALLOC_MMAP_THRESHOLD_" not in environ


def _glibc(name: str, *argtypes):
    """glibc's function ``name`` (returning int), or None (not Linux, not glibc)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        function = getattr(ctypes.CDLL(None), name)
    except (OSError, AttributeError):
        return None
    function.argtypes, function.restype = argtypes, ctypes.c_int
    return function


def raise_mmap_threshold() -> bool:
    """Raises glibc's mmap threshold to MMAP_THRESHOLD in this process, once, where its
    environment fixed it (``threshold_fixed``); whether it did. Not on glibc: nothing."""
    global _raised
    if _raised or not threshold_fixed(os.environ):
        return False
    mallopt = _glibc("mallopt", ctypes.c_int, ctypes.c_int)
    _raised = mallopt is not None and mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
    return _raised


def give_back() -> bool:
    """glibc's malloc_trim(0), where this process raised its mmap threshold (a Dask worker's,
    after a sweep's runs); whether any memory was given back."""
    trim = _glibc("malloc_trim", ctypes.c_size_t) if _raised else None
    return trim is not None and trim(0) == 1
