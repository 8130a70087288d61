"""A run's random numbers, all of them defined here, from its seed alone: never a hidden generator.

**engine: numpy.** A draw is a pure function of its address: the run's key (from its seed),
the generation, the stream (what the draw is for) and the draw's index within them. Every
function below takes an array of keys, a run each, so a batch of runs and one run (a batch
of one) draw the very same numbers: a batched run equals the one-seed run by construction,
whatever the batch, its order or the runs that ended in it. The streams and their shapes
are listed here (STREAMS); a draw is added or moved here and nowhere else.

The hash is SplitMix64 (Steele, Lea and Flood 2014), with numpy's wrapping uint64 arithmetic:

    key(seed)                      = mix(seed + G)               (its first output from seed)
    start(key, generation, stream) = mix(key + G * (stream * 2^32 + generation + 1))
    word(start, index)             = mix(start + G * (index + 1))

G = 0x9E3779B97F4A7C15 and mix SplitMix64's output function. Each (run, generation, stream)
so owns a SplitMix64 sequence whose start is itself a SplitMix64 output, as JAX folds data
into a key. A bounded integer below ``high`` (at most 2^32) is the word's high 32 bits times
``high``, shifted down 32 bits (Lemire's multiply without the rejection step: each value's
chance is within 2^-32 of 1/high); a uniform number is the word's high 53 bits / 2^53; a
random permutation is the stable argsort of n words. Seeds are taken modulo 2^64.

**Operators written DEAP's way** (DEAP's own, a user's) draw from the module ``random``, which
every thread of a process shares, so seeding it would not make a run repeatable.
``RandomBinding(generator)`` gives DEAP's code unchanged with the name ``random`` bound to a
run's own ``python(seed)``: the function asked for and every function of its module, so that
a function calling a sibling (``selTournament`` calls ``selRandom``) draws from the run's
generator all the way down. An operator that imports names from the random module, or draws
from numpy's global generator, is not bound.
"""

from __future__ import annotations

import random
import types
from functools import cache

import numpy as np

# the streams of engine: numpy, with the shape of a run's draws in one generation
POPULATION = 0  # generation 0: the first population, mu permutations of n (mu, n)
PARENTS = 1  # each child's parent: a tournament's entrants (lambda, size), uniform (lambda,)
SWAPS = 2  # the swap mutation: (lambda, count, 2) positions, the second below n - 1
CHOICES = 3  # variation and: mutated when below mutpb; or: crossed below cxpb, else mutated
CROSSINGS = 4  # variation each and and: pair k (children 2k, 2k + 1) crossed below cxpb
PARTNERS = 5  # variation or: a crossed child's second parent, below mu - 1
STREAMS = ("population", "parents", "swaps", "choices", "crossings", "partners")

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32, _S11 = (np.uint64(s) for s in (30, 27, 31, 32, 11))


def _mix(z: np.ndarray) -> np.ndarray:
    """SplitMix64's output function of uint64 values, in place (z is a fresh array)."""
    z ^= z >> _S30
    z *= _M1
    z ^= z >> _S27
    z *= _M2
    z ^= z >> _S31
    return z


def keys(seeds) -> np.ndarray:
    """Each seed's key (uint64), in order."""
    return _mix(np.array([int(seed) % 2**64 for seed in seeds], dtype=np.uint64) + GOLDEN)


@cache
def _steps(count: int) -> np.ndarray:
    """G * (index + 1) for the indices 0..count-1."""
    with np.errstate(over="ignore"):
        return GOLDEN * np.arange(1, count + 1, dtype=np.uint64)


def words(keys: np.ndarray, generation, stream: int, shape: tuple) -> np.ndarray:
    """The 64-bit words of ``stream`` in ``generation`` for each run, (runs, *shape); for a
    range of generations, a window of them at once, (runs, generations, *shape): the same
    words in fewer numpy calls."""
    count = int(np.prod(shape, dtype=np.int64))
    window = generation if isinstance(generation, range) else range(generation, generation + 1)
    counters = np.arange(window.start, window.stop, dtype=np.uint64) + np.uint64((stream << 32) + 1)
    with np.errstate(over="ignore"):
        starts = _mix(keys[:, None] + GOLDEN * counters)
        made = _mix(starts[:, :, None] + _steps(count))
    extra = (len(window),) if isinstance(generation, range) else ()
    return made.reshape(len(keys), *extra, *shape)


def integers(keys: np.ndarray, generation, stream: int, high, shape: tuple) -> np.ndarray:
    """Whole numbers from 0 to ``high`` - 1 (int64, (runs, *shape)); ``high`` a whole number
    from 1 to 2^32, or such numbers broadcast along the shape's last axes. ``generation`` as
    ``words`` takes it."""
    made = words(keys, generation, stream, shape)
    made >>= _S32
    made *= np.asarray(high, dtype=np.uint64)
    made >>= _S32
    return made.view(np.int64)


def uniform(keys: np.ndarray, generation, stream: int, shape: tuple) -> np.ndarray:
    """Numbers in [0, 1) (float64, (runs, *shape)), each a multiple of 2^-53."""
    made = words(keys, generation, stream, shape) >> _S11
    return made * 2.0**-53


def permutations(keys: np.ndarray, count: int, n: int) -> np.ndarray:
    """``count`` random permutations of 0..n-1 for each run (int64, (runs, count, n)): the
    first population (stream POPULATION, generation 0)."""
    return words(keys, 0, POPULATION, (count, n)).argsort(axis=2, kind="stable")


def python(seed: int) -> random.Random:
    """A run's own random.Random, for operators written DEAP's way: random.Random(seed), so
    engine: deap's run of a seed is DEAP's own after random.seed(seed)."""
    return random.Random(seed)


class RandomBinding:
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
