"""Running algorithms where the runs execute: one run timed, a batch of runs, and the memory a
batch needs (gaqueens.core.algorithms says what an algorithm is).

A run's ``seconds`` is the processor time of the thread that runs it (time.thread_time)
around the whole run: what the run costs, the same on a quiet machine as on a loaded one,
where wall time also counts the waits for a core; what a process pays once for an
algorithm with given settings (the modules its code imports, numpy's first calls, a compiled
kernel's loading) is paid first by an untimed run (``warm``), so that equal settings get
equal times whichever entry comes first.

A run's code (a plug-in's solver, operator or problem) that raises SystemExit, or
KeyboardInterrupt with no Ctrl-C or SIGTERM behind it (runtime/signals.py: in a worker process,
never), would end the command as if it were done, or interrupted: ``ending`` makes it a fault
naming the runs and where it was raised (core.errors.Ended), the runs stored before it kept.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import replace

import numpy as np

from gaqueens.core.algorithms import Algorithm
from gaqueens.core.errors import ended
from gaqueens.core.registry import PluginError, where
from gaqueens.core.result import Result
from gaqueens.runtime import signals

WARM_BOARD = 8  # the board of the untimed run that pays an algorithm's one-off costs
_WARMED: set = set()  # the (algorithm, settings) this process has run untimed


def warm(algorithm: Algorithm, settings) -> None:
    """Pays, once a process, what the first run of an algorithm with these settings pays on
    top of its own work: its ``prepare``, then an untimed run on board WARM_BOARD, seed 0 (the
    algorithm's own ``warm`` where it has one: the GA's caps the generations). A failing
    untimed run is ignored: the timed run says what is wrong."""
    key = (algorithm.run, repr(settings))
    if key in _WARMED:
        return
    _WARMED.add(key)
    try:
        if algorithm.prepare is not None:
            algorithm.prepare()
        if algorithm.warm is not None:
            algorithm.warm(settings)
        else:
            algorithm.run(settings, WARM_BOARD, 0)
    except Exception:
        pass


@contextmanager
def ending(runs: str):
    """Turns a SystemExit, or a KeyboardInterrupt that no signal raised, met by ``runs`` (such
    as "ga on board 8, seeds 1 to 5") into the fault that names where it was raised (the
    module's docstring): around the runs of a batch (gaqueens.runtime.executors) or of
    ``execute``."""
    try:
        yield
    except (SystemExit, KeyboardInterrupt) as error:
        if isinstance(error, KeyboardInterrupt) and signals.received():
            raise
        raise ended(error, runs) from error


def execute(algorithm: Algorithm, settings, board: int, seed: int) -> Result:
    """Runs one algorithm once, with ``seconds`` the processor time of this thread around the
    whole run, after ``warm`` (and ``ending``)."""
    with ending(f"the run on board {board}, seed {seed}"):
        return _timed(algorithm, settings, board, seed)


def _timed(algorithm: Algorithm, settings, board: int, seed: int) -> Result:
    warm(algorithm, settings)
    start = time.thread_time()
    result = algorithm.run(settings, board, seed)
    seconds = time.thread_time() - start
    wrong = result_problem(result, board)
    if wrong:
        raise PluginError(f"the algorithm {algorithm.source or where(algorithm.run)}: run on "
                          f"board {board}, seed {seed}, returned {wrong}")
    return replace(result, seconds=seconds)


def result_problem(result, board: int) -> str | None:
    """What is wrong with what an algorithm's run returned, as the store needs it: a
    gaqueens.core.result.Result whose solved is True or False, conflicts and work whole
    numbers >= 0, and solution a sequence of ``board`` entries; None when nothing is (the
    verifier checks the rest)."""
    if not isinstance(result, Result):
        return f"{type(result).__name__} {result!r:.60}, expected a gaqueens.core.result.Result"
    if not isinstance(result.solved, (bool, np.bool_)):
        return f"a Result with solved {result.solved!r}, expected True or False"
    for name in ("conflicts", "work"):
        value = getattr(result, name)
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 0:
            return f"a Result with {name} {value!r}, expected a whole number >= 0"
    try:
        length = len(result.solution)
    except TypeError:
        return (f"a Result whose solution is a {type(result.solution).__name__}, expected "
                f"{board} entries")
    if length != board:
        return f"a Result whose solution has {length} entries, expected {board}"
    return None


def runs_together(algorithm: Algorithm, settings, board: int) -> bool:
    """Whether a batch's runs advance together in one array (the GA's engine: numpy, whose
    larger batches cost less per run)."""
    return algorithm.together is not None and algorithm.together(settings, board)


def compiles_runs(algorithm: Algorithm, settings, board: int) -> bool:
    """Whether the algorithm runs a batch in its compiled kernel when asked (the GA's
    published family)."""
    return algorithm.compiles is not None and algorithm.compiles(settings, board)


def execute_batch(algorithm: Algorithm, settings, board: int, seeds: list[int],
                  compiled: bool = False) -> list[tuple[int, Result]]:
    """Runs one algorithm on one board for several seeds: the unit of work sent to a worker.
    An algorithm with ``run_many`` (the GA) runs them its way, each run its seed's own, its
    ``seconds`` its share of the batch's processor time where they advance together, in its
    compiled kernel if ``compiled``; any other one after the other."""
    if algorithm.run_many is not None:
        warm(algorithm, settings)
        more = {"compiled": True} if compiled else {}
        return list(zip(seeds, algorithm.run_many(settings, board, seeds, **more)))
    return [(seed, _timed(algorithm, settings, board, seed)) for seed in seeds]


def need(algorithm: Algorithm, settings, board: int, runs: int = 1) -> int | None:
    """The peak memory, in bytes, that a batch of ``runs`` runs on this board needs in its
    worker, as the algorithm states it (its ``memory``), or None where it states none: runs
    advanced together need their sum, others one run's at a time."""
    if algorithm.memory is None:
        return None
    if runs_together(algorithm, settings, board):
        return int(algorithm.memory(settings, board, runs))
    return int(algorithm.memory(settings, board))
