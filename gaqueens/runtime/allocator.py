"""glibc's allocator on a Dask worker: its mmap threshold given back the value glibc itself
would have grown it to.

Dask's nanny starts each worker with MALLOC_TRIM_THRESHOLD_=65536 (its setting
``distributed.nanny.pre-spawn-environ``), so that freed memory goes back to the system. Any
MALLOC_*_THRESHOLD_ variable also stops glibc from raising its mmap threshold as large blocks
are freed (mallopt(3)): it stays at 128 KiB, and every array above it is mapped anew and its
pages faulted in at each allocation. A batch of runs on board 128 allocates such arrays every
generation: ``ga.run_many`` on seeds 1 to 50 took 2.2-3.7x the processor time in a Dask worker
that it takes in a local one (0.11-0.12 s compiled, 0.24 s in numpy), and as much in a
process started with that variable alone. Raising the threshold to MMAP_THRESHOLD, glibc's own
ceiling for it on 64-bit systems, gave the local time back; the trim threshold, which is what
Dask asks for, is left as Dask set it.
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


def raise_mmap_threshold() -> bool:
    """Raises glibc's mmap threshold to MMAP_THRESHOLD in this process, once, where its
    environment fixed it (``threshold_fixed``); whether it did. Not on glibc (no mallopt, or
    one that refuses): nothing."""
    global _raised
    if _raised or not sys.platform.startswith("linux") or not threshold_fixed(os.environ):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    _raised = mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
    return _raised
