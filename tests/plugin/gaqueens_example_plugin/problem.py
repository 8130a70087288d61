"""The all-interval series (CSPLib problem 7): a permutation of 0..n-1 whose n - 1 gaps between
neighbours, |s[i+1] - s[i]|, are all different, so that each of 1..n-1 appears once. Its
conflicts are the gaps that repeat an earlier one: n - 1 less the distinct gaps."""

import numpy as np

from gaqueens.problems import Problem


class AllInterval(Problem):
    name = "all-interval"
    title = "All-interval series"
    measures = ("repeats",)
    conflicts_label = "repeated gaps"

    def evaluate(self, size, genomes, measure):
        gaps = np.sort(np.abs(np.diff(genomes, axis=1)), axis=1)
        return (gaps[:, 1:] == gaps[:, :-1]).sum(axis=1)

    def reject(self, size, solution, conflicts, solved, solved_at, measure):
        repeats = (size - 1) - len({abs(b - a) for a, b in zip(solution, solution[1:])})
        if repeats != conflicts or bool(solved) != (repeats <= solved_at):
            return f"it reports {conflicts} repeated gaps (solved: {solved}), the verifier counts {repeats}"
        return None


PROBLEM = AllInterval()
