"""glibc's allocator in the processes that run batches: on a Dask worker, its mmap threshold
given back the value glibc itself would have grown it to; in a local worker, freed memory kept
for the next generation's arrays. And in a process about to fork (the exports', verify's),
the memory its allocators keep freed given back first.

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

A local worker (gaqueens.runtime.executors) is the sweep's own process, started for its
batches and ended after them, so it keeps what it frees (``keep_freed``): glibc's own
thresholds still give back the top of the heap whenever more than twice the mmap threshold
lies free there, and a batch on board 64 or 128 (seeds 1 to 50) faulted in 2,000-4,500 pages
again and again, 10,000 in a worker's first batch. With the mmap threshold at MMAP_THRESHOLD
and the trim threshold at KEEP, the first batch faulted in about 5,000 and the later ones
almost none; a batch's peak is the same (79 against 78 MB of maximum RSS on 128). The table's
runs on boards 64 and 128, two workers, then cost 1.01x and 0.94x of ga.run_many's processor
time per evaluation, against 1.11x and 1.06x before (medians of six sweeps each).

With the threshold raised, a Dask worker's arrays come from its heap, and what they leave free
between chunks still in use stays with the process after the sweep, unless given back
(``give_back``, glibc's malloc_trim), which the sweep asks of every worker once its runs are
done (gaqueens.runtime.cluster). python -m gaqueens.bench.scale measures the cluster's memory
before and after the 100,000-run sweep.

Before a process forks (the exports' workers: gaqueens.runtime.workers), ``before_fork`` gives
back what its allocators keep freed: a forked process shares its parent's pages until one of
them writes to a page, which is then held twice, and free memory left in the parent's heap is
written to as soon as either allocates there.
"""

from __future__ import annotations

import ctypes
import os
import sys

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # mallopt's parameter numbers (glibc's malloc.h)
MMAP_THRESHOLD = 32 * 2**20  # glibc's DEFAULT_MMAP_THRESHOLD_MAX for 64-bit systems
KEEP = 256 * 2**20  # free bytes a local worker keeps at the top of its heap
_raised = False
_kept = False


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


def _mallopt():
    """glibc's mallopt, or None."""
    return _glibc("mallopt", ctypes.c_int, ctypes.c_int)


def keep_freed() -> bool:
    """Keeps freed memory in this process, a local worker's (the module's docstring), unless
    the environment chose glibc's thresholds itself (any MALLOC_*_THRESHOLD_); whether it
    did."""
    global _kept
    mallopt = _mallopt()
    if mallopt is None or any(name.startswith("MALLOC_") and name.endswith("_THRESHOLD_")
                              for name in os.environ):
        return False
    _kept = mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1 and mallopt(M_TRIM_THRESHOLD, KEEP) == 1
    return _kept


def raise_mmap_threshold() -> bool:
    """Raises glibc's mmap threshold to MMAP_THRESHOLD in this process, once, where its
    environment fixed it (``threshold_fixed``); whether it did. Not on glibc (no mallopt, or
    one that refuses): nothing."""
    global _raised
    if _raised or not threshold_fixed(os.environ):
        return False
    mallopt = _mallopt()
    if mallopt is None:
        return False
    _raised = mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
    return _raised


def _trim() -> bool:
    """glibc's malloc_trim(0): gives the system back the free memory of this process's heap;
    whether any was given back (False where there is no glibc)."""
    trim = _glibc("malloc_trim", ctypes.c_size_t)
    return trim is not None and trim(0) == 1


def give_back() -> bool:
    """Gives the system back the free memory of this process's heap (glibc's malloc_trim),
    where this process raised its mmap threshold (a Dask worker's, after a sweep's runs);
    whether any was given back."""
    return _raised and _trim()


def before_fork() -> None:
    """Gives the system back the memory this process's allocators keep freed (the module's
    docstring): glibc's heap (malloc_trim), and pyarrow's pool where pandas has loaded it."""
    _trim()
    arrow = sys.modules.get("pyarrow")
    if arrow is not None:
        arrow.default_memory_pool().release_unused()
