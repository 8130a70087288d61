"""What the tests of runs share: whether two results are the same run."""

import numpy as np

from gaqueens.core.result import Result


def same_run(first: Result, second: Result) -> bool:
    """Whether two results are the same run: equal numbers, solution and trace (timing aside)."""
    def strip(result):
        return (result.solved, result.conflicts, result.work, result.generations)

    if (first.trace is None) != (second.trace is None):
        return False
    return (
        strip(first) == strip(second)
        and np.array_equal(first.solution, second.solution)
        and (first.trace is None or np.array_equal(first.trace, second.trace))
    )
