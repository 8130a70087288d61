"""glibc's mmap threshold on a Dask worker (gaqueens/runtime/allocator.py): raised once where
the environment fixed it, as Dask's nanny does, and left alone elsewhere."""

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


def _raised_in_a_new_process(extra: dict) -> str:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    code = ("from gaqueens.runtime import allocator; "
            "print(allocator.raise_mmap_threshold(), allocator.raise_mmap_threshold())")
    done = subprocess.run([sys.executable, "-c", code], env={**environ, **extra},
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


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
