"""A run's random numbers, drawn from its seed alone: never the random module's hidden generator.

DEAP's operators and algorithms draw from the module ``random``, whose one generator every
thread of a process shares (Dask's own threads draw from it too), so seeding it would not make
a run repeatable. ``Bound(generator)`` gives DEAP's code unchanged with the name ``random``
bound to a run's own ``random.Random``: the function asked for and every function of its
module, so that a function calling a sibling (``selTournament`` calls ``selRandom``) draws
from the run's generator all the way down. A user's operator written DEAP's way (``import
random`` and calls to ``random.random()``) is bound the same way; one that imports names from
the random module, or draws from numpy's global generator, is not.
"""

from __future__ import annotations

import random
import types
from functools import cached_property

import numpy as np


class Bound:
    """DEAP-style functions drawing from ``generator``; the random module itself gives the
    functions back unchanged (what DEAP's own algorithms run with after random.seed)."""

    def __init__(self, generator):
        self.generator = generator
        self._modules: dict[int, dict] = {}  # id of a module's namespace -> its bound copy
        self._copies: dict = {}  # original function -> bound copy

    def __call__(self, function):
        if self.generator is random or not isinstance(function, types.FunctionType):
            return function
        if function not in self._copies:
            self._bind_module(function.__globals__)
            if function not in self._copies:  # not a module-level function of its module
                self._copies[function] = _copy(function, self._modules[id(function.__globals__)])
        return self._copies[function]

    def _bind_module(self, namespace: dict) -> None:
        if id(namespace) in self._modules:
            return
        names = {**namespace, "random": self.generator}
        for name, value in namespace.items():
            if isinstance(value, types.FunctionType) and value.__globals__ is namespace:
                names[name] = self._copies[value] = _copy(value, names)
        self._modules[id(namespace)] = names


def _copy(function: types.FunctionType, names: dict) -> types.FunctionType:
    copy = types.FunctionType(function.__code__, names, function.__name__, function.__defaults__,
                              function.__closure__)
    copy.__kwdefaults__ = function.__kwdefaults__
    copy.__doc__, copy.__qualname__ = function.__doc__, function.__qualname__
    return copy


class Randomness:
    """A run's random numbers, from its seed alone.

    ``numpy`` is the run's numpy Generator and ``random`` its random.Random; ``deap(function)``
    is a DEAP-style function drawing from ``random`` (see Bound).

    ``integers(low, high, size)`` and ``uniform(size)`` serve numpy draws in blocks of
    ``block`` calls: numpy's Generator costs about 5 microseconds a call whatever its size,
    more than a generation's draws themselves. Each returns the next row of a block drawn for
    that (low, high, size), or that size: read it, do not change it.
    """

    def __init__(self, seed: int, block: int = 256):
        self.seed = seed
        self.numpy = np.random.default_rng(seed)
        self.block = block
        self._blocks: dict[tuple, list] = {}

    @cached_property
    def random(self) -> random.Random:
        """The run's random.Random(seed), made when first used (its numbers do not depend on
        when)."""
        return random.Random(self.seed)

    @cached_property
    def deap(self) -> Bound:
        return Bound(self.random)

    def integers(self, low: int, high: int, size) -> np.ndarray:
        return self._next((low, high, size), lambda shape: self.numpy.integers(low, high, shape))

    def uniform(self, size: int) -> np.ndarray:
        return self._next(("uniform", size), self.numpy.random)

    def ahead(self, low: int, high: int, size, count: int) -> np.ndarray:
        """The draws of the next ``count`` calls ``integers(low, high, size)``, one array of
        shape (count, *size), drawn from the generator exactly where those calls would draw
        them: the block is drawn anew only when the first of the calls would. The calls must
        not run past the block (ValueError), so a block of 256 is taken in slices of 256, 128,
        ... from its start. gaqueens.ga.batched takes many generations' draws at once so."""
        key = (low, high, size)
        entry = self._blocks.get(key)
        if entry is None or entry[1] == self.block:
            entry = self._blocks[key] = [self.numpy.integers(low, high, self._shape(size)), 0]
        if entry[1] + count > self.block:
            raise ValueError(f"{count} calls from call {entry[1]} run past a block of {self.block}")
        entry[1] += count
        return entry[0][entry[1] - count: entry[1]]

    def _shape(self, size) -> tuple:
        """A block's shape: ``block`` calls of ``size`` (a number or a tuple)."""
        return (self.block, *(tuple(size) if isinstance(size, (tuple, list)) else (size,)))

    def _next(self, key: tuple, draw) -> np.ndarray:
        entry = self._blocks.get(key)
        if entry is None or entry[1] == self.block:
            entry = self._blocks[key] = [draw(self._shape(key[-1])), 0]
        entry[1] += 1
        return entry[0][entry[1] - 1]
