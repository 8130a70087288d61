"""glibc's allocator where batches run (gaqueens/runtime/allocator.py): a Dask worker's mmap
threshold raised once where the environment fixed it, as Dask's nanny does, and left alone
elsewhere; a local pool worker keeping freed memory, so that its later batches fault few pages
in, unless the environment chose glibc's thresholds; a Dask worker's free heap given back once
a sweep's runs are done; what a process's allocators keep freed given back before it forks."""

import os
import subprocess
import sys

import pytest

from gaqueens.runtime import allocator


@pytest.mark.parametrize("environ, fixed", [
    ({}, False),
    ({"MALLOC_TRIM_THRESHOLD_": "65536"}, True),  # Dask's nanny
    ({"MALLOC_TRIM_THRESHOLD_": "65536", "MALLOC_MMAP_THRESHOLD_": "131072"}, False),
    ({"MALLOC_MMAP_THRESHOLD_": "131072"}, False),  # the user's own choice: kept
])
def test_only_a_trim_threshold_alone_counts_as_fixed(environ, fixed):
    assert allocator.threshold_fixed(environ) is fixed


def _printed(code: str, extra: dict, *args: str) -> str:
    """What ``code`` prints in a new process whose environment has no MALLOC_ variable but
    those of ``extra``."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    done = subprocess.run([sys.executable, "-c", code, *args], env={**environ, **extra},
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def _raised_in_a_new_process(extra: dict) -> str:
    return _printed("from gaqueens.runtime import allocator; "
                    "print(allocator.raise_mmap_threshold(), allocator.raise_mmap_threshold())",
                    extra)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_the_threshold_is_raised_once_where_the_environment_fixed_it():
    assert _raised_in_a_new_process({"MALLOC_TRIM_THRESHOLD_": "65536"}) == "True False"
    assert _raised_in_a_new_process({}) == "False False"


def test_a_dask_worker_raises_its_threshold_before_its_first_batch(tmp_path):
    """Dask's nanny starts its workers with MALLOC_TRIM_THRESHOLD_ (the premise, checked
    against Dask itself); a batch sent there runs after the threshold is raised."""
    distributed = pytest.importorskip("distributed")
    from gaqueens.experiment import load
    from gaqueens.runtime.batches import batches
    from gaqueens.runtime.cluster import run_on_worker

    (tmp_path / "x.yaml").write_text("boards: [8]\nseeds: {first: 1, last: 2}\n")
    experiment = load(tmp_path / "x.yaml")
    [batch] = batches(experiment, experiment.tasks(), 1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        [environ] = client.run(lambda: os.environ.get("MALLOC_TRIM_THRESHOLD_")).values()
        assert environ is not None
        [before] = client.run(lambda: allocator._raised).values()
        _, results = client.submit(run_on_worker, batch, pure=False).result()
        [after] = client.run(lambda: allocator._raised).values()
    assert [seed for seed, _ in results] == [1, 2]
    assert (before, after) == (False, sys.platform.startswith("linux"))


def _fragmented() -> int:
    """Leaves 64 MB free between chunks still in use on this process's heap, where blocks of
    1 MB come from the heap (the threshold raised); the process's resident bytes after."""
    import numpy as np

    blocks = [np.ones(2**20 // 8) for _ in range(128)]
    _fragmented.kept = blocks[1::2]  # every other block stays in use
    del blocks
    return _resident()


def _resident() -> int:
    from gaqueens.bench.memory import _status

    return _status(os.getpid())["VmRSS"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_dask_workers_give_back_their_free_heap_once_the_runs_are_done(tmp_path):
    distributed = pytest.importorskip("distributed")
    from gaqueens.experiment import load
    from gaqueens.runtime.batches import batches
    from gaqueens.runtime.cluster import dask_cluster

    (tmp_path / "x.yaml").write_text("boards: [8]\nseeds: {first: 1, last: 4}\n")
    experiment = load(tmp_path / "x.yaml")
    first, second = batches(experiment, experiment.tasks(), 2)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert len(list(dask_cluster([first], client))) == 1  # the threshold raised there
        if not all(client.run(lambda: allocator._raised).values()):
            pytest.skip("this system's allocator has no mallopt to raise the threshold with")
        [before] = client.run(_fragmented).values()
        assert len(list(dask_cluster([second], client))) == 1
        [after] = client.run(_resident).values()
    assert before - after > 32 * 2**20, (before, after)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_before_forking_a_process_gives_back_the_free_memory_between_blocks_in_use():
    """32 MB left free between 100 kB blocks still in use (below glibc's mmap threshold: from
    the heap, whose top stays in use) go back to the system."""
    given = _printed("""
import os
import numpy as np
from gaqueens.bench.memory import _status
from gaqueens.runtime import allocator

def resident():
    return _status(os.getpid())["VmRSS"]

blocks = [np.ones(100 * 1024 // 8) for _ in range(640)]
kept = blocks[1::2]
del blocks
before = resident()
allocator.before_fork()
print(before - resident())
""", {})
    assert int(given) > 16 * 2**20, given


def test_before_forking_pyarrows_pool_gives_back_its_unused_memory(monkeypatch):
    released = []
    pool = type("Pool", (), {"release_unused": lambda self: released.append(True)})()
    arrow = type("Arrow", (), {"default_memory_pool": staticmethod(lambda: pool)})
    monkeypatch.setitem(sys.modules, "pyarrow", arrow)
    allocator.before_fork()
    assert released == [True]


def test_only_a_process_that_raised_its_threshold_gives_memory_back():
    assert _printed("from gaqueens.runtime import allocator; print(allocator.give_back())",
                    {}) == "False"


def _kept_in_a_new_process(extra: dict) -> str:
    return _printed("from gaqueens.runtime import allocator; print(allocator.keep_freed())", extra)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_a_local_worker_keeps_freed_memory_unless_the_environment_chose_the_thresholds():
    assert _kept_in_a_new_process({}) == "True"
    assert _kept_in_a_new_process({"MALLOC_TRIM_THRESHOLD_": "65536"}) == "False"  # Dask's
    assert _kept_in_a_new_process({"MALLOC_MMAP_THRESHOLD_": "131072"}) == "False"


FAULTS = """
import resource, sys
from gaqueens import ga
from gaqueens.ga import GaSettings
from gaqueens.runtime import allocator
if sys.argv[1] == "kept":
    assert allocator.keep_freed()
faults = []
for _ in range(5):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    ga.run_many(GaSettings(), 64, range(1, 51))
    faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
print(sum(faults[2:]))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_batches_after_the_first_fault_few_pages_in_where_freed_memory_is_kept():
    """The module's docstring: a batch on board 64 faults its arrays' pages in again and
    again under glibc's own thresholds; where freed memory is kept, the later batches reuse
    them."""
    faults = {how: int(_printed(FAULTS, {}, how)) for how in ("glibc", "kept")}
    assert faults["kept"] * 4 < faults["glibc"], faults


class _Kept:
    """A stand-in batch: tells whether its worker keeps freed memory."""

    def run(self):
        return allocator._kept


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_a_pool_worker_keeps_freed_memory_before_its_first_batch(monkeypatch):
    from gaqueens.runtime.executors import local_pool

    for name in [k for k in os.environ if k.startswith("MALLOC_")]:
        monkeypatch.delenv(name)
    running = local_pool([_Kept()], 1)
    try:
        [(_, kept)] = list(running)
    finally:
        running.close()
    assert kept is True
