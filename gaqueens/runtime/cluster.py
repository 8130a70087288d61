"""Runs on a Dask cluster: connecting to its scheduler (refusing workers that run other code
than this process), a worker's memory budget, and batches sent a few at a time, their results
coming back to this process, so that the store keeps a single writer.

A worker first gives glibc's mmap threshold back the value that the environment Dask's nanny
starts it with had fixed too low (gaqueens.runtime.allocator): the runs cost there what they
cost in a local worker. Once the sweep's runs are done, each worker that raised it gives back
the free memory its heap kept (allocator.give_back).

On Dask the scheduler itself runs a lost worker's tasks again (up to its
``distributed.scheduler.allowed-failures``); a batch it gives up on (KilledWorker), or a
scheduler that goes away, raises ClusterFailed. A fault met in a batch (a plug-in's code
raising SystemExit: core.errors.Ended) comes back as the batch's result and is raised here,
as in a local worker, without the cluster logging a failed task. tests/test_faults.py kills a
real worker.
"""

from __future__ import annotations

import itertools
import traceback
from typing import Iterator

from gaqueens.core.errors import BadInput, Fault
from gaqueens.runtime import allocator
from gaqueens.runtime.batches import Batch, out_of_memory, run_batch
from gaqueens.runtime.budget import shown
from gaqueens.runtime.manifest import worker_code


class Unreachable(BadInput):
    """The Dask scheduler cannot be reached."""


class ClusterFailed(Fault):
    """The Dask cluster cannot finish the runs: it gave up on a batch, or went away."""


def connect(address: str, plugins=()):
    """A client of the Dask scheduler at ``address``, or Unreachable: within a few seconds
    when none answers, at once for an address that is not one, and when its workers run other
    code than this process (gaqueens' own, manifest.code_identity, or the plug-in code of the
    modules ``plugins``, gaqueens.runtime.plugin_code), as runs record this process's code."""
    try:
        from distributed import Client
        from distributed.comm.addressing import get_address_host_port
    except ImportError:
        raise Unreachable("--scheduler needs Dask: pip install 'gaqueens[cluster]'") from None
    try:
        get_address_host_port(address)
    except ValueError as error:
        raise Unreachable(f"--scheduler {address} is not the address of a Dask scheduler, such as "
                          f"tcp://HOST:PORT ({error})") from None
    try:
        client = Client(address, timeout="5s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise Unreachable(f"--scheduler {address}: no Dask scheduler answers there ({error})") from None
    ours = worker_code(plugins)
    for theirs in client.run(worker_code, tuple(plugins)).values():
        if theirs[0] != ours[0]:
            client.close()
            raise Unreachable(f"--scheduler {address}: its workers run other code ({theirs[0]}) "
                              f"than this sweep ({ours[0]}): install the same gaqueens there")
        changed = sorted(module for module in {*theirs[1], *ours[1]}
                         if theirs[1].get(module) != ours[1].get(module))
        if changed:
            client.close()
            module = changed[0]
            raise Unreachable(f"--scheduler {address}: its workers have other code of the plug-in "
                              f"module {module} (source digest {theirs[1].get(module, 'none')}) "
                              f"than this sweep ({ours[1].get(module, 'none')}): install the same "
                              f"{module} there")
    return client


def dask_budget(client, given: int | None = None) -> tuple[int | None, str]:
    """The memory budget of a Dask worker thread: ``given``, or the smallest memory limit of
    the cluster's workers shared among its threads; None when they state none."""
    if given is not None:
        return given, f"--memory-budget {shown(given)}"
    workers = client.scheduler_info().get("workers", {}).values()
    shares = [info["memory_limit"] // max(1, info.get("nthreads", 1)) for info in workers
              if info.get("memory_limit")]
    if not shares:
        return None, "the Dask workers state no memory limit"
    return min(shares), "the Dask workers' memory limit shared among their threads"


def run_on_worker(batch: Batch):
    """A batch and its results, computed on a Dask worker (allocator.raise_mmap_threshold
    first, once a process), or the batch and the fault it met (the module's docstring)."""
    allocator.raise_mmap_threshold()
    try:
        return run_batch(batch)
    except Fault as fault:
        fault.details = traceback.format_exc()
        return batch, fault


IN_FLIGHT = 2  # batches submitted to the cluster per worker thread, at most, at a time


def dask_cluster(batches: list[Batch], client, in_flight: int | None = None) -> Iterator:
    """Batches submitted through a Dask ``client``; results come back to this process, so the
    store keeps a single writer. At most ``in_flight`` batches (IN_FLIGHT per worker thread by
    default) are out at a time, the next submitted as one's results arrive, whose future is
    then dropped: the cluster holds a few batches' results, however many runs (submitted all
    at once, every result stayed on the workers until the sweep's end)."""
    from concurrent.futures import CancelledError

    from distributed import KilledWorker, as_completed

    if not batches:
        return
    threads = sum(client.nthreads().values()) if in_flight is None else 0
    limit = in_flight or max(1, IN_FLIGHT * threads)
    waiting = iter(batches)
    running = {}  # future -> its batch, while its results are not yet here

    def submit(count: int) -> list:
        futures = []
        for batch in itertools.islice(waiting, count):
            future = client.submit(run_on_worker, batch, pure=False)
            running[future] = batch
            futures.append(future)
        return futures

    completed = as_completed(submit(limit), loop=client.loop)
    try:
        with client.as_current():
            for future in completed:
                batch = running.pop(future)
                try:
                    result = future.result()
                except KilledWorker:
                    raise ClusterFailed(
                        f"the Dask workers running {batch} died each time "
                        "and the scheduler gave up on it (KilledWorker; see its "
                        "distributed.scheduler.allowed-failures)") from None
                except MemoryError:
                    raise out_of_memory(batch, "on a Dask worker") from None
                except (CancelledError, OSError, TimeoutError) as error:
                    address = getattr(client.scheduler, "address", "")
                    raise ClusterFailed(
                        f"the Dask scheduler {address} stopped answering while running "
                        f"{batch} ({type(error).__name__})") from None
                del future  # the last reference: the cluster forgets its results
                if isinstance(result[1], Fault):
                    raise result[1]
                completed.update(submit(1))
                yield result
        if client.status == "running":  # the runs done: the workers give back what the
            try:  # raised threshold kept, at best: every run is stored by now
                client.run(allocator.give_back, on_error="ignore")
            except (OSError, RuntimeError):  # the cluster went away (its pool closed)
                pass
    finally:
        pending = [future for future in running if not future.done()]
        if pending and client.status == "running":
            client.cancel(pending)
