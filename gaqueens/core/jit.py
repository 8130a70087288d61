"""numba's compiler for the kernels of the classic solvers, the counter and the GA's compiled
generation, with its cache.

numba is imported only inside the runs that use a kernel, never by a small GA sweep, as its
import and the first kernel read from the cache cost a process noticeable time. Each kernel's
machine code is written on its first call and read back by later processes (NUMBA_CACHE_DIR,
else ``__pycache__`` beside the module, else the user's cache folder; without any, compiled
in each process). numba keys a kernel's cache on the source of its own file only, so each
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
