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
    evaluations  the work done, in the algorithm's own unit (the GA: evaluations)
    solution     the final placement: column per row, rows from 0
    generations  the GA's generations (0 for the baselines)
    seconds      wall time of the whole run where it ran, filled in by ``registry.execute``
                 (what an algorithm loads once a process, a compiled kernel, is not counted);
                 for GA runs made together (``ga.run_many``, the sweep's batches), the run's
                 share of the batch's wall time: each generation's time split evenly among the
                 runs it advanced, the set-up among all (gaqueens/ga/batched.py). A share is a
                 cost per run, not one run's own time: its spread is narrower
    trace        the GA's record per generation, columns TRACE_COLUMNS; None for baselines

    Equality compares the numbers only; ``same_run`` compares the arrays too.
    """

    solved: bool
    conflicts: int
    evaluations: int
    solution: np.ndarray = field(compare=False)
    generations: int = 0
    seconds: float = 0.0
    trace: np.ndarray | None = field(default=None, repr=False, compare=False)


def same_run(first: Result, second: Result) -> bool:
    """Whether two results are the same run: equal numbers, solution and trace (timing aside)."""
    def strip(result):
        return (result.solved, result.conflicts, result.evaluations, result.generations)

    if (first.trace is None) != (second.trace is None):
        return False
    return (
        strip(first) == strip(second)
        and np.array_equal(first.solution, second.solution)
        and (first.trace is None or np.array_equal(first.trace, second.trace))
    )
