"""The batched GA's random numbers (gaqueens.ga.batched): each seed's draws from its own
Randomness, exactly as its own run on the general engine would take them, laid out beside the
other seeds' a window of generations at a time.

A generation of the general engine (gaqueens.ga.numpy_engine, variation each, a built-in
selection and Swap(1)) makes the numpy calls of ``calls`` in that order; Randomness serves each
(low, high, size) from a block drawn for 256 calls. ``Draws.draw`` takes each seed's next
``chunk`` generations of each call at once (Randomness.ahead), so that each block is drawn
where the first of its calls would draw it: chunks of 256 generations, or 128 when two calls
share a block (Uniform's (0, mu, lambda) and the swap's (0, n, lambda) when mu = n, or its
(0, n - 1, lambda) when mu = n - 1). tests/test_batched.py checks such cases run by run.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from gaqueens.ga.operators import Tournament
from gaqueens.ga.randomness import Randomness
from gaqueens.ga.settings import GaSettings


def calls(settings: GaSettings, board: int) -> list[tuple]:
    """The general engine's numpy draws in one generation, in order, as (low, high, size): the
    parents' selection, then the swap's two positions."""
    mu, lam = settings.population, settings.children
    select = ((0, mu, (lam, settings.select.size)) if isinstance(settings.select, Tournament)
              else (0, mu, lam))
    return [select, (0, board, lam), (0, board - 1, lam)]


class Draws:
    """The running seeds' draws, a chunk of generations at a time.

    ``draw`` takes the chunk's blocks from each seed's own Randomness (the drawing itself).
    ``stack(t, seeds, mu, generation)`` lays out the draws of a window of generations from t
    (the run's ``generation``) for the rows
    of ``seeds`` (in the chunk, in its order), whose populations start mu rows apart:
    windows of 8 generations at a chunk's start, growing to 64, so that short runs stack
    little. ``take(t)`` gives generation t's: the rows of the parents' entrants (rows,
    lambda, entrants), the tournament's or the uniform pick, and the swap's two positions in
    planes (2, rows, lambda), the second made other than the first as Swap does.
    """

    def __init__(self, calls: list[tuple], block: int):
        self.calls = calls
        self.chunk = block // max(calls.count(key) for key in calls)  # blocks drawn at its start
        self.keys = list(dict.fromkeys(calls))  # in the order of their first call
        self.blocks: dict[tuple, list[np.ndarray]] = {}
        self.seeds = np.empty(0, dtype=np.int64)
        self.start, self.end = 0, 0  # the window's generations in the chunk
        self.entrants = self.positions = np.empty(0)

    def draw(self, seeds: np.ndarray, randomness: list[Randomness]) -> None:
        """The next chunk's blocks of the seeds ``seeds`` (ascending), from their generators."""
        for key in self.keys:
            uses = self.calls.count(key)
            children = key[2][0] if isinstance(key[2], tuple) else key[2]  # (lambda, ...)
            self.blocks[key] = [r.ahead(*key, uses * self.chunk).reshape(
                self.chunk, uses, children, -1) for r in randomness]
        self.seeds, self.start, self.end = seeds, 0, 0

    def stacked(self, t: int) -> bool:
        return self.start <= t < self.end

    def stack(self, t: int, seeds: np.ndarray, mu: int, generation: int) -> None:
        size = min(64, max(8, generation))  # 8, 8, 16, 32, 64, ...: none crosses a chunk's end
        self.start, self.end = t, min(t + size, self.chunk)
        window = slice(self.start, self.end)
        places = np.searchsorted(self.seeds, seeds).tolist()
        seen: dict = {}
        columns = []
        for key in self.calls:  # the o-th call of a key takes its o-th draws
            use = seen[key] = seen.get(key, -1) + 1
            blocks = self.blocks[key]
            columns.append(np.stack([blocks[p][window, use] for p in places], axis=1))
        first, second = columns[-2][..., 0], columns[-1][..., 0]  # (window, rows, lambda)
        second += second >= first
        self.entrants = columns[0] + _bases(len(seeds), mu)[None, :, :, None]
        self.positions = np.stack((first, second), axis=1)  # (window, 2, rows, lambda)

    def take(self, t: int) -> tuple[np.ndarray, np.ndarray]:
        return self.entrants[t - self.start], self.positions[t - self.start]


@cache
def _bases(count: int, mu: int) -> np.ndarray:
    """The first row of each of ``count`` seeds' populations, as a column."""
    return mu * np.arange(count)[:, None]
