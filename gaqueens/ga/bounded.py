"""numpy's bounded integers, the very numbers Generator.integers(low, high, count) gives, drawn
for many generators at once.

A call of Generator.integers costs numpy some 8 microseconds, however few its numbers; the
batched engine (gaqueens.ga.draws) needs three such calls per seed at every block of draws,
and on board 8, where a run lasts some six generations, they were a third of its time.

How numpy makes them (its distributions.c, for int64 results and a range r = high - low of at
most 2^32): each number takes the next 32-bit word w of the bit generator and is low +
(w * r >> 32) (Lemire's method), but where the low 32 bits of w * r fall below 2^32 mod r,
when w is rejected and the next word taken (never for a power of two; about r / 2^32 of the
words otherwise); a range of 1 takes no word. A PCG64 makes its words two at a time, the low
half of a 64-bit output first; the high half waits in the bit generator for the next call.

Here each generator's words are its raw outputs (BitGenerator.random_raw, one call for all of
a seed's numbers) cut in halves, and the numbers of all the generators are made in a few numpy
calls over an array with a row per generator (or, for the compiled generation, in numba's one
pass, gaqueens.ga.bounded_kernel). ``Words`` keeps the waiting half itself: once
numbers are drawn through it, draw integers from that generator only through it (its 64-bit
draws, such as Generator.random, take no half and may go on). tests/test_bounded.py checks the
numbers and what follows them against Generator.integers.
"""

from __future__ import annotations

import sys

import numpy as np

_WORD = np.uint64(0xFFFFFFFF)
_HALF = np.uint64(32)


class Words:
    """A numpy Generator's stream of 32-bit words, from where it stands: the half its bit
    generator keeps waiting, if any, then the halves of its raw 64-bit outputs, low first."""

    def __init__(self, generator: np.random.Generator):
        self.bit_generator = generator.bit_generator
        if not isinstance(self.bit_generator, np.random.PCG64):
            name = type(self.bit_generator).__name__
            raise ValueError(f"words are read from a PCG64, not a {name}")
        state = self.bit_generator.state
        self.waiting = state["uinteger"] if state["has_uint32"] else None

    def take(self, count: int) -> np.ndarray:
        """The next ``count`` words (uint32)."""
        return take_many([self], count)[0]


def take_many(sources: list[Words], count: int) -> np.ndarray:
    """The next ``count`` words of each source, a row each (uint32): each source's raw
    outputs copied once, into its row."""
    words = np.empty((len(sources), count), dtype=np.uint32)
    if count == 0:
        return words
    for row, source in zip(words, sources):
        waiting = source.waiting is not None
        if waiting:
            row[0] = source.waiting
        halves = _interleaved(source.bit_generator.random_raw((count - waiting + 1) // 2))
        row[waiting:] = halves[: count - waiting]
        source.waiting = int(halves[-1]) if len(halves) > count - waiting else None  # it waits
    return words


def integers_many(sources: list[Words], calls: list[tuple[int, int, int]],
                  compiled: bool = False) -> list[np.ndarray]:
    """What Generator.integers(low, high, count) gives for each (low, high, count) of ``calls``
    in turn, from each source's generator: an int64 array (sources, count) per call, the calls'
    arrays views of one array, side by side. The sources are taken a few at a time, so that
    their words stay in the processor's cache.
    ``compiled``: each number made in numba's one pass (gaqueens.ga.bounded_kernel)."""
    if any(not 1 <= high - low <= 2**32 for low, high, _ in calls):
        raise ValueError("each range high - low must be from 1 to 2^32")
    taking = [(high - low, count) for low, high, count in calls if high - low > 1]
    ranges = np.concatenate([np.full(count, span, dtype=np.uint64) for span, count in taking]
                            or [np.empty(0, np.uint64)])  # a range of one takes no word
    thresholds = (np.uint64(2**32) % ranges).astype(np.uint32)
    numbers = np.empty((len(sources), len(ranges)), dtype=np.int64)  # the calls' side by side
    make = _compiled_pass if compiled else _numpy_pass
    step = max(1, _CACHED // max(1, len(ranges)))
    for first in range(0, len(sources), step):
        rows = slice(first, first + step)
        words = take_many(sources[rows], len(ranges))
        for row in make(words, ranges, thresholds, numbers[rows]).nonzero()[0]:
            products = _with_rejections(sources[first + row], words[row], ranges, thresholds)
            numbers[first + row] = _halves(products)[1]
    made, at = [], 0
    for low, high, count in calls:
        if high - low == 1:
            part = np.zeros((len(sources), count), dtype=np.int64)
        else:
            part, at = numbers[:, at: at + count], at + count
        if low:
            part += low
        made.append(part)
    return made


def _numpy_pass(words, ranges, thresholds, numbers) -> np.ndarray:
    """Writes into ``numbers`` the high halves of the products w * r; gives the rows where
    some word is rejected (its low half below the threshold), whose numbers are made again.
    Each product is made in its number's place, whose high half is then shifted down."""
    products = numbers.view(np.uint64)
    np.multiply(words, ranges, out=products)  # w * r, in 64 bits
    rejected = ((_halves(products)[0] < thresholds).any(axis=1) if thresholds.any()
                else np.zeros(len(words), dtype=bool))
    np.right_shift(products, _HALF, out=products)  # w * r >> 32
    return rejected


def _compiled_pass(words, ranges, thresholds, numbers) -> np.ndarray:
    """_numpy_pass's numbers and rows, in numba's one pass."""
    from gaqueens.ga import bounded_kernel

    rejected = np.empty(len(words), dtype=bool)
    bounded_kernel.lemire(words, ranges, thresholds, numbers, rejected)
    return rejected


_CACHED = 2**16  # words taken at once: their 64-bit products fill 512 kB


def _halves(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The low and the high 32 bits of uint64 values, each as uint32 (views where the machine
    is little-endian)."""
    if sys.byteorder == "little":
        pairs = values.view(np.uint32).reshape(*values.shape, 2)
        return pairs[..., 0], pairs[..., 1]
    return (values & _WORD).astype(np.uint32), (values >> _HALF).astype(np.uint32)


def _interleaved(raw: np.ndarray) -> np.ndarray:
    """The 32-bit words of raw 64-bit outputs, low half first (a view where the machine is
    little-endian)."""
    if sys.byteorder == "little":
        return raw.view(np.uint32)
    return np.stack(_halves(raw), axis=1).reshape(-1)


def _with_rejections(source: Words, words: np.ndarray, ranges: np.ndarray,
                     thresholds: np.ndarray) -> np.ndarray:
    """The products w * r of the numbers when some words are rejected: each rejected word
    gives way to the next, the words after it drawn from the source as needed."""
    products = np.empty(len(ranges), dtype=np.uint64)
    made, used = 0, 0  # numbers made, words used
    while made < len(ranges):
        need = len(ranges) - made
        if len(words) - used < need:
            words = np.concatenate((words[used:], source.take(need - (len(words) - used))))
            used = 0
        product = np.multiply(words[used: used + need], ranges[made:], dtype=np.uint64)
        rejected = _halves(product)[0] < thresholds[made:]
        good = int(rejected.argmax()) if rejected.any() else need
        products[made: made + good] = product[:good]
        made, used = made + good, used + good + 1  # the rejected word is skipped
    return products
