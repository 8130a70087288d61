"""The one value every algorithm returns, the GA and each baseline alike."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

TRACE_COLUMNS = ("generation", "evaluations", "best", "median", "worst", "mean")


@dataclass(frozen=True)
class Result:
    """The outcome of one run.

    solved       whether the run reached its target (0 conflicts, a solution, unless an
                 experiment sets another target)
    conflicts    attacking pairs of the final placement
    work         the work done, in the algorithm's own unit (the GA: evaluations; the local
                 search: swaps tried; backtracking: nodes; see each algorithm's UNIT)
    solution     the final placement: column per row, rows from 0
    generations  the GA's generations (0 for the baselines)
    seconds      processor time of the run in its thread (time.thread_time: what it costs,
                 not the waits for a core), filled in by ``runtime.execution.execute``; for
                 GA runs made together, the run's share of the batch's processor time
                 (gaqueens/ga/numpy_engine.py), a cost per run whose spread is narrower
    trace        the GA's record per generation, columns TRACE_COLUMNS; None for baselines

    Equality compares the numbers only (tests/runs.py's same_run compares the arrays too).
    """

    solved: bool
    conflicts: int
    work: int
    solution: np.ndarray = field(compare=False)
    generations: int = 0
    seconds: float = 0.0
    trace: np.ndarray | None = field(default=None, repr=False, compare=False)
