"""The batched GA's random numbers (gaqueens.ga.batched): each seed's draws from its own
Randomness, exactly as its own run on the general engine would take them, laid out beside the
other seeds' a window of generations at a time.

A generation of the general engine (gaqueens.ga.general, variation each, a built-in
selection and Swap(1)) makes the numpy calls of ``calls`` in that order; Randomness serves each
(low, high, size) from blocks drawn for 16, 32, ... up to 256 calls. ``Draws.draw`` takes each
seed's next ``chunk`` generations of each call at once (Randomness.ahead), so that each block is
drawn where the first of its calls would draw it: a chunk ends where the first of the keys'
blocks ends, which is sooner for a key that two calls share (Uniform's (0, mu, lambda) and the
swap's (0, n, lambda) when mu = n, or its (0, n - 1, lambda) when mu = n - 1: its block serves
half as many generations). tests/test_batched.py checks such cases run by run.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from gaqueens.ga.randomness import Randomness
from gaqueens.ga.settings import GaSettings


def calls(settings: GaSettings, board: int) -> list[tuple]:
    """The general engine's numpy draws in one generation, in order, as (low, high, size): the
    parents' selection, then the swap's two positions."""
    mu, lam = settings.population, settings.children
    select = ((0, mu, (lam, settings.select.get("size"))) if settings.select.name == "tournament"
              else (0, mu, lam))
    return [select, (0, board, lam), (0, board - 1, lam)]


class Draws:
    """The running seeds' draws, a chunk of generations at a time.

    ``draw(generation, seeds, randomness)`` takes the blocks of the chunk starting at
    ``generation`` from each seed's own Randomness (the drawing itself). ``stack(generation,
    seeds, mu)`` lays out the draws of a window of generations from ``generation`` for the rows
    of ``seeds`` (in the chunk, in its order), whose populations start mu rows apart: windows
    of 8 generations at a run's start, growing to 64, so that short runs stack little; none
    crosses a chunk's end. ``take(generation)`` gives that generation's: the rows of the
    parents' entrants (rows, lambda, entrants), the tournament's or the uniform pick, and the
    swap's two positions in planes (2, rows, lambda), the second made other than the first as
    Swap does.
    """

    def __init__(self, calls: list[tuple]):
        self.calls = calls
        self.keys = list(dict.fromkeys(calls))  # in the order of their first call
        self.uses = {key: calls.count(key) for key in self.keys}  # calls per generation
        self.blocks: dict[tuple, list[np.ndarray]] = {}
        self.seeds = np.empty(0, dtype=np.int64)
        self.begin, self.end = 0, 0  # the chunk's generations
        self.start, self.stop = 0, 0  # the window's generations
        self.entrants = self.positions = np.empty(0)

    def drawn(self, generation: int) -> bool:
        return generation < self.end

    def draw(self, generation: int, seeds: np.ndarray, randomness: list[Randomness]) -> None:
        """The blocks of the chunk from ``generation`` (where the last ended) of the seeds
        ``seeds`` (ascending), from their generators, which all stand at the same call."""
        lead = randomness[0]  # the seeds' blocks start and end together
        chunk = min((lead.left(*key) or lead.next_block(*key)) // self.uses[key]
                    for key in self.keys)
        for key in self.keys:
            uses = self.uses[key]
            children = key[2][0] if isinstance(key[2], tuple) else key[2]  # (lambda, ...)
            self.blocks[key] = [r.ahead(*key, uses * chunk).reshape(chunk, uses, children, -1)
                                for r in randomness]
        self.seeds, self.begin, self.end = seeds, generation, generation + chunk
        self.start = self.stop = generation

    def stacked(self, generation: int) -> bool:
        return self.start <= generation < self.stop

    def stack(self, generation: int, seeds: np.ndarray, mu: int) -> None:
        size = min(64, max(8, generation))  # 8, 8, 16, 32, 64, ...
        self.start, self.stop = generation, min(generation + size, self.end)
        window = slice(self.start - self.begin, self.stop - self.begin)
        places = np.searchsorted(self.seeds, seeds).tolist()
        seen: dict = {}
        columns = []
        for key in self.calls:  # the o-th call of a key takes its o-th draws
            use = seen[key] = seen.get(key, -1) + 1
            blocks = self.blocks[key]
            columns.append(np.stack([blocks[p][window, use] for p in places], axis=1))
        first, second = columns[-2][..., 0], columns[-1][..., 0]  # (window, rows, lambda)
        second += second >= first
        self.entrants = columns[0] + bases(len(seeds), mu)[None, :, :, None]
        self.positions = np.stack((first, second), axis=1)  # (window, 2, rows, lambda)

    def take(self, generation: int) -> tuple[np.ndarray, np.ndarray]:
        return self.entrants[generation - self.start], self.positions[generation - self.start]


@cache
def bases(count: int, mu: int) -> np.ndarray:
    """The first row of each of ``count`` seeds' populations, as a column."""
    return mu * np.arange(count)[:, None]
