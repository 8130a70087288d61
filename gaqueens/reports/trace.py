"""A GA run's frames, made again from its settings and seed (gaqueens.ga.replay): what the
report page's player shows and what ``python -m gaqueens.run --trace FILE`` writes.

A frame is one generation as genoxide's example traces (format 1) record it:

    generation   the generation, from 0 (the initial population)
    evaluations  the fitness evaluations made up to and including it
    best         the fitness of the best genome found so far
    median       the median fitness of the generation's population
    state        {best: the best genome so far (a placement: the column of each row from
                  0); attacks, where the problem's picture is "queens" (N-Queens): the pairs
                  [row, row] (row < row) whose queens attack each other along a column or a
                  diagonal}

The frames kept: every ``every``-th generation, ``every`` doubling from 1 whenever MOST
frames are kept (genoxide's rule), and the run's last generation, which is the run's own end.
The trace file and the page's player keep the same frames.

The trace file is genoxide's: one JSON object, its header keys (format 1, example: the
problem's trace_example or name, "n_queens" for N-Queens; objective, x_label, y_label, log_y,
optimum, plot: "board" where the problem is pictured as queens, else "permutation"; problem
{n}) then "frames", one frame a line; compact JSON with sorted keys, floats to 6 significant
digits.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict

import numpy as np

from gaqueens import ga, problems

MOST = 200
FORMAT = 1


def attacks(placement) -> list[list[int]]:
    """The pairs [a, b] of rows, a < b, whose queens attack each other: in one column, or on
    one diagonal (falling: equal r - c; rising: equal r + c). In the order of the rows."""
    lines = defaultdict(list)
    for row, column in enumerate(int(c) for c in placement):
        for key in (("c", column), ("f", row - column), ("r", row + column)):
            lines[key].append(row)
    # two rows share at most one line (two would put them on one square), so no pair repeats
    pairs = [(a, b) for rows in lines.values() if len(rows) > 1
             for i, a in enumerate(rows) for b in rows[i + 1:]]
    return [list(pair) for pair in sorted(pairs)]


def frame(generation, evaluations, best, best_fitness, median_fitness,
          with_attacks: bool = True) -> dict:
    """The frame of one generation (keys as the module docstring says; ``with_attacks``
    False leaves the state's attacks out)."""
    placement = np.asarray(best).tolist()
    state = {"best": placement}
    if with_attacks:
        state["attacks"] = attacks(placement)
    return {"generation": int(generation), "evaluations": int(evaluations),
            "best": float(best_fitness), "median": float(median_fitness), "state": state}


class _Strided:
    """Every ``every``-th generation, ``every`` doubling whenever MOST frames are kept, and
    the last one seen (kept as its raw values until the end: a frame costs its attacks)."""

    def __init__(self, most: int = MOST, with_attacks: bool = True):
        self.most, self.every, self.kept, self.last = most, 1, [], None
        self.with_attacks = with_attacks

    def __call__(self, generation, evaluations, best, best_fitness, median_fitness):
        if generation % self.every:  # ``best``: a copy to keep (gaqueens.ga.replay)
            self.last = (generation, evaluations, best, best_fitness, median_fitness)
            return
        self.last = None
        self.kept.append(frame(generation, evaluations, best, best_fitness, median_fitness,
                               self.with_attacks))
        while len(self.kept) >= self.most:  # room for the last one at the end
            self.every *= 2
            self.kept = [kept for kept in self.kept if kept["generation"] % self.every == 0]

    def frames(self) -> list[dict]:
        return self.kept + ([frame(*self.last, self.with_attacks)] if self.last is not None
                            else [])


def frames(settings, board: int, seed: int):
    """The run of ``settings`` on ``board`` for ``seed`` made again, and its frames (the
    module docstring). Returns (result, frames)."""
    return frames_many(settings, board, [seed])[0]


def frames_many(settings, board: int, seeds, with_attacks: bool | None = None) -> list[tuple]:
    """``frames`` of each seed, the runs made again together (gaqueens.ga.replay_many); the
    frames hold the attacks where ``with_attacks`` says, by default where the problem is
    pictured as queens (False: the page's player draws them itself)."""
    if with_attacks is None:
        with_attacks = queens(settings.problem)
    recorders = [_Strided(with_attacks=with_attacks) for _ in seeds]
    results = ga.replay_many(settings, board, seeds, recorders)
    return [(result, recorder.frames()) for result, recorder in zip(results, recorders)]


def queens(problem: str) -> bool:
    """Whether the problem of that name is pictured as queens on a board (gaqueens.problems:
    ``picture``), whose frames then carry the attacking pairs."""
    return problems.get(problem).picture == "queens"


def header(board: int, problem: str = problems.DEFAULT) -> dict:
    """The trace file's keys before its frames (the module docstring): for N-Queens,
    genoxide's n_queens example's."""
    solved_by = problems.get(problem)
    return {"format": FORMAT, "example": solved_by.trace_example or solved_by.name,
            "objective": "minimize", "x_label": "generations", "y_label": "conflicts",
            "log_y": False, "optimum": 0.0,
            "plot": "board" if queens(problem) else "permutation",
            "problem": {"n": int(board)}}


def rounded(value):
    """``value`` with each finite float to 6 significant digits (others None), as JSON."""
    if isinstance(value, dict):
        return {key: rounded(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [rounded(item) for item in value]
    if isinstance(value, float):
        return float(f"{value:.5e}") if math.isfinite(value) else None
    return value


def to_json(value) -> str:
    """Compact JSON, sorted keys, floats to 6 significant digits."""
    return json.dumps(rounded(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def trace_text(board: int, frames_: list[dict], problem: str = problems.DEFAULT) -> str:
    """The trace file's text: the header's keys, then "frames", one frame a line."""
    lines = ",\n".join(map(to_json, frames_))
    return f'{to_json(header(board, problem))[:-1]},"frames":[\n{lines}\n]}}\n'
