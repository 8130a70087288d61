"""A run's random numbers, drawn from its seed alone: never the random module's hidden generator."""

from __future__ import annotations

import random
import types

import numpy as np


class Randomness:
    """A run's random numbers, from its seed alone.

    ``integers(low, high, size)`` serves numpy draws in blocks of ``block`` calls: numpy's
    Generator.integers costs about 5 microseconds a call whatever its size, more than a
    generation's draws themselves. It returns the next row of a block drawn for that (low,
    high, size): read it, do not change it.

    ``numpy`` is the run's numpy Generator and ``random`` its random.Random.
    ``deap(function)`` is one of DEAP's operators drawing from the run's own random.Random
    rather than the random module's hidden generator, which every thread of the process shares
    (Dask's own threads draw from it too, so seeding it would not make a run repeatable).
    """

    def __init__(self, seed: int, block: int = 256):
        self.numpy = np.random.default_rng(seed)
        self.random = random.Random(seed)
        self.block = block
        self._blocks: dict[tuple, list] = {}
        self._deap: dict = {}

    def deap(self, function):
        if function not in self._deap:
            # DEAP's code unchanged, its module's name `random` bound to this run's generator
            names = {**function.__globals__, "random": self.random}
            self._deap[function] = types.FunctionType(
                function.__code__, names, function.__name__, function.__defaults__,
                function.__closure__)
        return self._deap[function]

    def integers(self, low: int, high: int, size) -> np.ndarray:
        key = (low, high, size)
        entry = self._blocks.get(key)
        if entry is None or entry[1] == self.block:
            shape = (self.block, *np.atleast_1d(size))
            entry = self._blocks[key] = [self.numpy.integers(low, high, shape), 0]
        entry[1] += 1
        return entry[0][entry[1] - 1]
