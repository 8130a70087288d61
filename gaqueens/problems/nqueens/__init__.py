"""N-Queens: n queens on an n x n board, one per row, none attacking another.

A genome is a placement: entry r is the column of the queen in row r, a permutation of
0..n-1, so rows and columns never clash and only the diagonals can. Its conflicts are the
pairs of queens that attack each other.

    fitness.py         the GA's batched fitness by two measures, counting its evaluations
    swaps.py           a swap child's fitness from its parent's diagonal counts, for the GA
    generation_kernel.py  the GA's generation of the published family compiled, for large
                       sweeps
    verifier.py        the independent verifier, which imports nothing of what makes answers
    facts.py           random placements' mean conflicts, known solution counts, the drawing
    counting.py        every solution counted (and its compiled kernel, counting_kernel.py)
    solutions.py       every solution of a small board listed, and the 8 symmetries of the square
    solutions_page.py  the self-contained page of them (count N --html)
"""

from __future__ import annotations

import numpy as np

from gaqueens.problems import PROBLEMS, Problem, placements_text
from gaqueens.problems.nqueens import facts, verifier
from gaqueens.problems.nqueens.fitness import FITNESSES, Conflicts, Fitness


class NQueens(Problem):
    """N-Queens behind the problem interface (gaqueens.problems)."""

    name = "nqueens"
    title = "N-Queens"
    measures = FITNESSES  # pairs (published), excess (DEAP's own N-Queens example)
    conflicts_label = "attacking pairs"
    size_label, sizes_label = "board", "boards"
    genome_label = "placement"
    picture = "queens"
    trace_example = "n_queens"  # genoxide's

    def picture_note(self) -> str:
        return "Queens in red attack another queen; a line joins each attacking pair."

    def evaluate(self, size: int, genomes: np.ndarray, measure: str) -> np.ndarray:
        return Conflicts(size, measure)(np.asarray(genomes))

    def fitness(self, size: int, measure: str | None = None) -> Fitness:
        return Fitness(size, measure or "pairs")  # its own buffers: one run at a time

    def reject(self, size, solution, conflicts, solved, solved_at, measure):
        return verifier.rejection(solution, size, conflicts, solved, solved_at, measure)

    def reject_many(self, size, rows, conflicts, solved, solved_at, measure):
        """``reject`` of every row at once: the verifier's rejection_rows, the very function
        ``reject`` applies to one."""
        return verifier.rejection_rows(rows, size, conflicts, solved, solved_at, measure)

    def measured(self, size: int, solution, measure: str) -> int:
        if measure == "pairs":
            return verifier.attacking_pairs(solution)
        return verifier.diagonal_excess(solution)

    def measured_rows(self, size: int, genomes, measure: str):
        if measure == "pairs":
            return verifier.attacking_pairs_rows(genomes)
        return verifier.diagonal_excess_rows(genomes)

    def size_text(self, size: int) -> str:
        return f"{size:,} x {size:,}"

    def has_solution(self, size: int) -> bool:
        return facts.has_solution(size)

    def facts(self, size: int) -> dict:
        return {"placements": placements_text(size),
                "solutions": (facts.known_solutions(size) or (None,))[0],
                "random_conflicts": facts.mean_attacking_pairs(size)}

    def drawing(self, solution) -> str:
        return facts.drawing(solution)

    def ga_swaps(self, size: int, measure: str):
        """The GA's swap fitness for the published family (gaqueens.ga.generation)."""
        from gaqueens.problems.nqueens.swaps import SwapConflicts

        return SwapConflicts(size, measure)

    def ga_compiled(self, size: int, measure: str, scheme: str, ties: str):
        """The GA's generation of the published family, compiled (gaqueens.ga.generation)."""
        from gaqueens.problems.nqueens import generation_kernel  # numba, the kernel loaded

        return generation_kernel.Generation(size, measure, scheme, ties)


PROBLEM = PROBLEMS.register("nqueens", NQueens(), place="gaqueens.problems.nqueens.NQueens")
