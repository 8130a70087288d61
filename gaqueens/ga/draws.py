"""The batched GA's random numbers (gaqueens.ga.batched): each seed's draws from its own
Randomness, exactly as its own run on the general engine would take them, laid out beside the
other seeds' a window of generations at a time.

A generation of the general engine (gaqueens.ga.general, variation each, a built-in
selection and Swap(1)) makes the numpy calls of ``calls`` in that order; Randomness serves each
(low, high, size) from blocks drawn for 16, 32, ... up to 256 calls. ``Draws`` draws the same
blocks where the first of their calls would draw them, for all the running seeds at once
(gaqueens.ga.bounded), and serves them a chunk of generations at a time: a chunk ends where
the first of the keys' blocks ends, which is sooner for a key that two calls share (Uniform's
(0, mu, lambda) and the swap's (0, n, lambda) when mu = n, or its (0, n - 1, lambda) when
mu = n - 1: its block serves half as many generations). tests/test_batched.py checks such
cases run by run.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from gaqueens.ga.bounded import integers_many
from gaqueens.ga.randomness import Randomness, block_calls
from gaqueens.ga.settings import GaSettings


def calls(settings: GaSettings, board: int) -> list[tuple]:
    """The general engine's numpy draws in one generation, in order, as (low, high, size): the
    parents' selection, then the swap's two positions."""
    mu, lam = settings.population, settings.children
    select = ((0, mu, (lam, settings.select.get("size"))) if settings.select.name == "tournament"
              else (0, mu, lam))
    return [select, (0, board, lam), (0, board - 1, lam)]


class Block:
    """A key's block of draws for the seeds ``seeds`` (ascending), serving the generations
    from ``begin`` to ``end``: ``values[place, generation - begin, use]`` is the draw of the
    use-th call of the key in that generation for the seed at ``place``."""

    def __init__(self, seeds: np.ndarray, begin: int, end: int, values: np.ndarray):
        self.seeds, self.begin, self.end, self.values = seeds, begin, end, values


class Draws:
    """The running seeds' draws, a chunk of generations at a time.

    Each key's blocks serve as many calls as a Randomness's do (block_calls), and are drawn
    where its first call would draw them. ``draw(generation, seeds, randomness)``, where the
    last chunk ended, draws the next blocks of the keys whose blocks ended, for all the seeds
    at once (gaqueens.ga.bounded: every seed stands at the same call); the chunk lasts until
    the first of the keys' blocks ends. ``stack(generation, seeds, mu)`` lays out the draws of
    a window of generations from ``generation`` for the rows of ``seeds`` (those of the blocks,
    or fewer), whose populations start mu rows apart: windows of 8 generations at a run's
    start, growing to 64, so that short runs stack little; none crosses a chunk's end.
    ``take(generation)`` gives that generation's: the rows of the parents' entrants (rows,
    lambda, entrants), the tournament's or the uniform pick, and the swap's two positions in
    planes (2, rows, lambda), the second made other than the first as Swap does. With
    ``compiled`` (for a compiled generation, which does these sums itself, number by number),
    the draws as drawn instead: the entrants' ranks in their population, and the swap's first
    and second positions (rows, lambda) each, the second not yet made other than the first;
    and the numbers made in numba's pass (gaqueens.ga.bounded, ``compiled``).
    """

    def __init__(self, calls: list[tuple], compiled: bool = False):
        self.calls, self.compiled = calls, compiled
        self.keys = list(dict.fromkeys(calls))  # in the order of their first call
        self.uses = {key: calls.count(key) for key in self.keys}  # calls per generation
        self.blocks: dict[tuple, Block] = {}
        self.drawn_blocks = dict.fromkeys(self.keys, 0)
        self.end = 0  # the chunk's end
        self.start, self.stop = 0, 0  # the window's generations
        self.entrants = self.positions = np.empty(0)

    def drawn(self, generation: int) -> bool:
        return generation < self.end

    def draw(self, generation: int, seeds: np.ndarray, randomness: list[Randomness]) -> None:
        ended = [key for key in self.keys
                 if key not in self.blocks or self.blocks[key].end == generation]
        served = {key: block_calls(self.drawn_blocks[key]) for key in ended}  # calls
        drawn = integers_many([r.words for r in randomness],
                              [(key[0], key[1], served[key] * math.prod(_size(key)))
                               for key in ended], self.compiled)
        for key, values in zip(ended, drawn):
            generations = served[key] // self.uses[key]
            values = values.reshape(len(seeds), generations, self.uses[key], *_size(key)[:1], -1)
            self.blocks[key] = Block(seeds, generation, generation + generations, values)
            self.drawn_blocks[key] += 1
        self.end = min(block.end for block in self.blocks.values())
        self.start = self.stop = generation

    def stacked(self, generation: int) -> bool:
        return self.start <= generation < self.stop

    def stack(self, generation: int, seeds: np.ndarray, mu: int) -> None:
        size = min(64, max(8, generation))  # 8, 8, 16, 32, 64, ...
        self.start, self.stop = generation, min(generation + size, self.end)
        seen: dict = {}
        columns = []
        for key in self.calls:  # the o-th call of a key takes its o-th draws
            use = seen[key] = seen.get(key, -1) + 1
            block = self.blocks[key]
            window = block.values[:, self.start - block.begin: self.stop - block.begin, use]
            if len(block.seeds) != len(seeds):  # some of the block's seeds have ended
                window = window.take(np.searchsorted(block.seeds, seeds), axis=0)
            columns.append(window.swapaxes(0, 1))  # (window, rows, lambda, entrants)
        first, second = columns[-2][..., 0], columns[-1][..., 0]  # (window, rows, lambda)
        if self.compiled:
            self.entrants, self.positions = columns[0], (first, second)
            return
        second = second + (second >= first)
        self.entrants = columns[0] + bases(len(seeds), mu)[None, :, :, None]
        self.positions = np.stack((first, second), axis=1)  # (window, 2, rows, lambda)

    def take(self, generation: int) -> tuple:
        at = generation - self.start
        if self.compiled:
            return self.entrants[at], self.positions[0][at], self.positions[1][at]
        return self.entrants[at], self.positions[at]


def _size(key: tuple) -> tuple:
    """A key's calls' shape: (lambda, entrants) or (lambda,)."""
    return key[2] if isinstance(key[2], tuple) else (key[2],)


@cache
def bases(count: int, mu: int) -> np.ndarray:
    """The first row of each of ``count`` seeds' populations, as a column."""
    return mu * np.arange(count)[:, None]
