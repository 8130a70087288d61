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

import math
import random
import types
from functools import cached_property

import numpy as np

from gaqueens.ga.bounded import Words, integers_many


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


FIRST_BLOCK, BLOCK = 16, 256  # calls in a key's first block, and at most in any block


def block_calls(drawn: int) -> int:
    """The calls a key's block serves after ``drawn`` blocks: 16, 32, 64, 128, then 256."""
    return min(BLOCK, FIRST_BLOCK << min(drawn, 32))  # (no huge shifts)


class Randomness:
    """A run's random numbers, from its seed alone.

    ``numpy`` is the run's numpy Generator and ``random`` its random.Random; ``deap(function)``
    is a DEAP-style function drawing from ``random`` (see Bound).

    ``integers(low, high, size)`` and ``uniform(size)`` serve numpy draws in blocks drawn for
    many calls: numpy's Generator costs about 10 microseconds a call for a few hundred numbers,
    more than a generation's draws themselves. A key's (its (low, high, size), or its size)
    blocks grow (``block_calls``), so that a short run (the published GA solves board 8 after
    5 generations at the median) draws little and a long one draws rarely: on board 8, drawing
    blocks of 256 from the start took some 40% of ga.run_many's time (cProfile). A block of
    integers holds the numbers numpy's Generator.integers(low, high, (calls, *size)) gives,
    drawn through ``words`` (gaqueens.ga.bounded), which the batched engine draws from for
    many seeds at once; draw integers from ``numpy`` itself only before the first. Each call
    returns the next row of its key's block: read it, do not change it.
    """

    def __init__(self, seed: int, generator: np.random.Generator | None = None):
        self.seed = seed
        # np.random.default_rng(seed), or that very generator made beforehand (gaqueens.ga.seeding)
        self.numpy = np.random.default_rng(seed) if generator is None else generator
        self._blocks: dict[tuple, list] = {}  # key -> [block, calls served, blocks drawn]

    @cached_property
    def random(self) -> random.Random:
        """The run's random.Random(seed), made when first used (its numbers do not depend on
        when)."""
        return random.Random(self.seed)

    @cached_property
    def deap(self) -> Bound:
        return Bound(self.random)

    @cached_property
    def words(self) -> Words:
        """The generator's 32-bit words, from where it stands when first asked."""
        return Words(self.numpy)

    def integers(self, low: int, high: int, size) -> np.ndarray:
        return self._next((low, high, size),
                          lambda count: integers_many([self.words], [(low, high, count)])[0][0])

    def uniform(self, size: int) -> np.ndarray:
        return self._next(("uniform", size), self.numpy.random)

    def _draw(self, key: tuple, draw) -> list:
        """Draws the key's next block: calls of ``size`` (key[-1], a number or a tuple)."""
        entry = self._blocks.get(key)
        drawn = 0 if entry is None else entry[2]
        size = key[-1]
        shape = (block_calls(drawn), *(tuple(size) if isinstance(size, (tuple, list)) else (size,)))
        # drawn flat, then shaped: the same numbers in the same order (numpy fills C order),
        # and a third less of numpy's time per call than a shape costs it
        entry = self._blocks[key] = [draw(math.prod(shape)).reshape(shape), 0, drawn + 1]
        return entry

    def _next(self, key: tuple, draw) -> np.ndarray:
        entry = self._blocks.get(key)
        if entry is None or entry[1] == len(entry[0]):
            entry = self._draw(key, draw)
        entry[1] += 1
        return entry[0][entry[1] - 1]
