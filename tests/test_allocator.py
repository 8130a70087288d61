"""glibc's allocator on a Dask worker (gaqueens/runtime/allocator.py): its mmap threshold raised
once where the environment fixed it, as Dask's nanny does, and left alone elsewhere; its free
heap given back once a sweep's runs are done."""

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


def test_only_a_process_that_raised_its_threshold_gives_memory_back():
    assert _printed("from gaqueens.runtime import allocator; print(allocator.give_back())",
                    {}) == "False"
