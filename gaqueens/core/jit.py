"""numba's compiler for the kernels of the classic solvers, the counter and the GA's
generation, with its cache.

The inner loops of the local search, min-conflicts and the counter are compiled by numba
(gaqueens.baselines.local_search_kernel, min_conflicts_kernel, gaqueens.problems.nqueens.counting_kernel),
and so is the batched GA's generation where a large sweep asks for it
(gaqueens.problems.nqueens.generation_kernel; gaqueens.runtime.batches). numba installs from wheels (numba and llvmlite, no compiler needed)
and is imported only inside those runs, never by a small GA sweep: importing it costs about
0.25 s, reading the first kernel of a process from the cache about 0.4 s more.

Cache: each kernel's machine code is written on its first call and read back by later
processes, so compiling (a few seconds per module) is paid once per installation. numba
chooses where: NUMBA_CACHE_DIR when it is set, else the ``__pycache__`` folder beside the
module when that can be written, else the user's cache folder (``~/.cache/numba`` on Linux),
which covers a read-only site-packages. Where none can be written, the kernels are compiled
without a cache, in each process that calls them. numba keys a kernel's cache on the source
of its own file only (a change to a compiled function in another file goes unseen), so each
kernel module compiles only functions of its own file: the two solvers' kernels carry their
own copy of the random number generator for that reason.
"""

from __future__ import annotations

import numba


def kernel(function=None, *, signatures=None, **options):
    """numba's ``njit`` with ``cache=True``, or without a cache where numba finds no folder it
    can write (it raises RuntimeError then). Usable bare (``@kernel``) or with numba's options
    (``@kernel(nogil=True)``). ``signatures``: numba's argument types, compiled (or read from
    the cache) when the module is imported instead of at the first call, and calls of other
    types refused."""
    def compiled(function):
        given = (signatures,) if signatures else ()
        try:
            return numba.njit(*given, cache=True, **options)(function)
        except RuntimeError:  # numba: "cannot cache function ...: no locator available"
            return numba.njit(*given, **options)(function)

    return compiled if function is None else compiled(function)
