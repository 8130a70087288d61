"""numba's pass over the words of gaqueens.ga.bounded, for the batched GA's compiled
generation: each number made from its word in one pass, where numpy's calls take three (the
products, their low halves against the thresholds, their high halves copied out), each over
the whole array. On board 128, 100 seeds, those three took some 15 of ga.run_many's 105 ns
per evaluation (compiled).

The numbers are those of gaqueens.ga.bounded (Lemire's method, as numpy's Generator.integers):
a row where some word is rejected is flagged, and bounded makes that row's numbers again in
numpy, skipping each rejected word as Generator.integers does. tests/test_bounded.py checks
both passes against Generator.integers.
"""

from __future__ import annotations

import numpy as np
from numba import types

from gaqueens.core.jit import kernel


def _signature() -> tuple:
    words, numbers = types.Array(types.uint32, 2, "C"), types.Array(types.int64, 2, "C")
    return (words, types.Array(types.uint64, 1, "C"), types.Array(types.uint32, 1, "C"),
            numbers, types.Array(types.boolean, 1, "C"))


@kernel(nogil=True, signatures=[_signature()])
def lemire(words, ranges, thresholds, numbers, rejected):
    """``numbers[s, c]``, the high half of ``words[s, c] * ranges[c]``, for every row s and
    column c; ``rejected[s]`` where some low half in row s falls below its column's
    threshold (that row's numbers are then not numpy's from there on)."""
    rows, count = words.shape
    low = np.uint64(0xFFFFFFFF)
    half = np.uint64(32)
    for s in range(rows):
        bad = False
        for c in range(count):
            product = np.uint64(words[s, c]) * ranges[c]
            bad |= np.uint32(product & low) < thresholds[c]
            numbers[s, c] = np.int64(product >> half)
        rejected[s] = bad
