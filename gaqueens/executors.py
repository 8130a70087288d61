"""Where the runs execute: this process, a pool of local processes, or a Dask cluster.

Each executor takes batches (name, algorithm, settings, board, seeds) and yields each batch's
results as it finishes, in any order; the sweep stores them. A run's result depends only on its
settings and seed, so the executor changes nothing but the time.
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
from typing import Iterable, Iterator

from gaqueens.registry import execute_batch

Batch = tuple  # (name the runs are stored by, registry.Algorithm, settings, board, [seeds])


class Unreachable(Exception):
    """The Dask scheduler cannot be reached."""


def _run(batch: Batch):
    return batch, execute_batch(*batch[1:])


def in_process(batches: Iterable[Batch]) -> Iterator:
    for batch in batches:
        yield _run(batch)


def _worker_signals():
    # Ctrl-C reaches every process of the terminal's group: the sweep alone handles it, and
    # stops its workers with SIGTERM, which ends them quietly (not the sweep's own handler).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def local_pool(batches: list[Batch], workers: int) -> Iterator:
    """A pool of ``workers`` processes, started now (before the sweep starts any thread):
    forked on Linux, so they start without importing anything again."""
    method = "fork" if sys.platform == "linux" else "spawn"
    pool = multiprocessing.get_context(method).Pool(workers, initializer=_worker_signals)
    return _pooled(pool, batches)


def _pooled(pool, batches: list[Batch]) -> Iterator:
    try:
        yield from pool.imap_unordered(_run, batches)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def connect(address: str):
    """A client of the Dask scheduler at ``address``, or Unreachable within a few seconds."""
    try:
        from distributed import Client
    except ImportError:
        raise Unreachable("--scheduler needs Dask: pip install 'gaqueens[cluster]'") from None
    try:
        return Client(address, timeout="5s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise Unreachable(f"--scheduler {address}: no Dask scheduler answers there ({error})") from None


def dask_cluster(batches: list[Batch], client) -> Iterator:
    """Batches submitted through a Dask ``client``; results come back to this process, so the
    store keeps a single writer."""
    from distributed import as_completed

    futures = [client.submit(_run, batch, pure=False) for batch in batches]
    try:
        with client.as_current():
            for future in as_completed(futures):
                yield future.result()
    finally:
        pending = [future for future in futures if not future.done()]
        if pending:
            client.cancel(pending)
