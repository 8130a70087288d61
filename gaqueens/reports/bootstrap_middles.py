"""The middle places of bootstrap resamples read from counted picks: the numbers of sorting
every resample, without sorting them.

Every group of runs of one size resamples from a generator seeded 0 (the summary's interval for
each algorithm and board, each pair of the comparisons), so the picks
``rng.integers(0, n, (rows, size))`` are the same array for all of them. ``middle`` draws them
once per generator state and keeps how often each run is picked in each row (at most COUNTS
bytes); a generator met again in a state already drawn from is set to where that draw left it,
as if it had drawn again. The places found are kept too (``PLACES`` draws): the comparisons set
every algorithm against the same first entry on each board.

From the counts, the k-th smallest pick of a row is the run, in sorted order, at which the
row's count so far first exceeds k. A resample's middle lies near the runs' middle (its spread
is about n / (2 sqrt(size)) places), so only a band of BAND spreads either side is summed
column by column; a row whose middle falls outside it is counted in full. Where counting costs
more than sorting (picks far fewer than the runs) or would hold too much memory, the picks are
sorted. Without the counts, the exports of the 100,000-run sweep (results/scale) miss their
goal.
"""

from __future__ import annotations

import math

import numpy as np

BAND = 8  # spreads of a resample's middle either side of the runs' middle: the band counted
COUNTS = 160 * 2**20  # bytes of counts kept for draws from states seen before
CHUNK = 1_000  # rows counted at once
PLACES = 256  # draws of given runs whose middle places are kept

_kept: dict = {}  # (generator state, n, rows, size) -> (counts, state after the draw)
_places: dict = {}  # (the same, the order's bytes) -> (places, state after the draw)


def middle(rng: np.random.Generator, order: np.ndarray, rows: int, size: int):
    """The places, in the sorted runs, of the ((size - 1) // 2)-th and (size // 2)-th smallest
    picks of each row of ``rng.integers(0, n, (rows, size))``, where ``order`` (n long, from a
    stable argsort) lists the runs in sorted order; the generator advances as by that draw."""
    n = len(order)
    ks = ((size - 1) // 2, size // 2)
    if 4 * size < n or rows * n > COUNTS or size >= 2**24:  # a byte a count
        # int32 places: numpy sorts them with SIMD on AVX2 too, 16-bit ones on AVX-512 only
        rank = np.empty(n, dtype=np.int32 if n < 2**31 else np.int64)
        rank[order] = np.arange(n)  # each run's place in sorted order
        picks = rank.take(rng.integers(0, n, (rows, size)))
        picks.sort(axis=1)
        return tuple(picks[:, k] for k in ks)
    generator = rng.bit_generator
    key = (type(generator).__name__, repr(generator.state), n, rows, size)
    found = (key, np.asarray(order, dtype=np.int64).tobytes())
    if found in _places:
        places, generator.state = _places[found]
        return places
    places = _from_counts(_counts(rng, key, n, rows, size), order, size, ks)
    for place in places:
        place.setflags(write=False)  # handed out again
    if len(_places) >= PLACES:
        del _places[next(iter(_places))]  # the oldest first
    _places[found] = (places, generator.state)
    return places


def _counts(rng: np.random.Generator, key: tuple, n: int, rows: int, size: int) -> np.ndarray:
    """How often each run is picked in each row: (n, rows), a run's counts in a row of their
    own (the band's are then a few contiguous rows); ``key`` is the generator's state with the
    draw's shape. A count is kept in a byte (a run picked more than 255 times in one row, as
    in a resample of a few runs, makes them int32): four times as many draws kept in the same
    memory as float32 counts, and summed as fast."""
    generator = rng.bit_generator
    if key in _kept:
        counts, after = _kept[key]
        generator.state = after
        return counts
    counts = np.empty((n, rows), dtype=np.uint8)
    for start in range(0, rows, CHUNK):
        # a chunk at a time, the same picks as one draw of them all (numpy draws each int64
        # pick in turn; tests/test_bootstrap_middles.py), in a fraction of its memory
        part = rng.integers(0, n, (min(CHUNK, rows - start), size))
        cells = part * len(part) + np.arange(len(part))[:, None]  # run, then row
        counted = np.bincount(cells.ravel(), minlength=n * len(part)).reshape(n, len(part))
        if counts.dtype == np.uint8 and counted.max() > np.iinfo(np.uint8).max:
            counts = counts.astype(np.int32)
        counts[:, start:start + len(part)] = counted
    if counts.nbytes > COUNTS:  # made int32: used, not kept
        return counts
    while _kept and sum(c.nbytes for c, _ in _kept.values()) + counts.nbytes > COUNTS:
        del _kept[next(iter(_kept))]  # the oldest first
    _kept[key] = (counts, generator.state)
    return counts


def _from_counts(counts: np.ndarray, order: np.ndarray, size: int, ks) -> tuple:
    """The place in sorted order of each row's k-th smallest pick, for each k of ``ks``
    (neighbours in the middle; see the module's docstring)."""
    n = counts.shape[0]
    centre, spread = (min(ks) + 0.5) * n / size, n / (2 * math.sqrt(size))
    low = max(0, int(centre - BAND * spread) - 2)
    high = min(n, int(centre + BAND * spread) + 3)
    # the picks below the band, summed row by row in int32 (a row has fewer than 2**24
    # picks); not as a matrix-vector product, whose BLAS threads then spun on the other core
    # for a while after each call
    below = counts.take(np.sort(order[:low]), axis=0).sum(axis=0, dtype=np.int32)
    seen = counts.take(order[low:high], axis=0).astype(np.int32)
    seen[0] += below
    for i in range(1, len(seen)):  # a running sum down the band
        np.add(seen[i], seen[i - 1], out=seen[i])
    places = []
    for k in ks:
        place = low + (seen <= k).sum(axis=0)  # the counts so far only grow along the band
        outside = (below > k) | (seen[-1] <= k)
        if outside.any():
            full = counts[:, outside].take(order, axis=0).cumsum(axis=0)
            place[outside] = (full <= k).sum(axis=0)
        places.append(place)
    return tuple(places)
