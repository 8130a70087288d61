"""numpy's ``default_rng(seed)`` for many seeds at once: the very generators, seeded in a few
numpy calls instead of one SeedSequence per seed.

numpy seeds a PCG64 from ``SeedSequence(seed).generate_state(4, uint64)``, and a SeedSequence
costs some 10 microseconds (its hashing runs word by word with numpy's error state saved and
restored around it): on board 8, where the published GA's runs last about six generations,
seeding 100 seeds took a tenth of ga.run_many's time. The hashing (numpy's
bit_generator.pyx, after M. E. O'Neill's seed_seq) is 32-bit multiplies, xors and shifts whose
constants do not depend on the seed, so one pass over an array of seeds gives every seed's
pool and state; PCG64 then takes each seed's words through numpy's own interface for seed
sequences (``ISeedSequence``) and seeds itself from them as it does from a SeedSequence.

Seeds from 0 to 2^32 - 1 (one word of entropy) go this way; any other seed goes to numpy's
``default_rng``. tests/test_seeding.py checks the generators' states against default_rng's.
"""

from __future__ import annotations

import numpy as np
from numpy.random.bit_generator import ISeedSequence

POOL = 4  # numpy's DEFAULT_POOL_SIZE, in 32-bit words
INIT_A, MULT_A = 0x43B0D7E5, 0x931E8875  # the hash of the entropy into the pool
INIT_B, MULT_B = 0x8B51F9DD, 0x58F38DED  # the hash of the pool into the state
MIX_L, MIX_R = 0xCA01F9DD, 0x4973F715
SHIFT = 16
ONE_WORD = 2**32  # seeds below this have one word of entropy


class _Words(ISeedSequence):
    """A seed sequence whose state is already worked out: PCG64 asks it for 4 uint64 words."""

    def __init__(self, words: np.ndarray):
        self.words = words

    def generate_state(self, n_words, dtype=np.uint32):
        if n_words != 4 or np.dtype(dtype) != np.uint64:  # only what PCG64 asks for
            raise ValueError("these words serve a PCG64 only")
        return self.words


def generators(seeds) -> list[np.random.Generator]:
    """``np.random.default_rng(seed)`` for each seed, in order."""
    seeds = [int(seed) for seed in seeds]
    fast = [k for k, seed in enumerate(seeds) if 0 <= seed < ONE_WORD]
    made: list = [None] * len(seeds)
    if fast:
        states = _states(np.array([seeds[k] for k in fast], dtype=np.uint32))
        for k, words in zip(fast, states):
            made[k] = np.random.Generator(np.random.PCG64(_Words(words)))
    for k, seed in enumerate(seeds):
        if made[k] is None:
            made[k] = np.random.default_rng(seed)
    return made


def _states(entropy: np.ndarray) -> np.ndarray:
    """Each one-word seed's ``SeedSequence(seed).generate_state(2 * POOL, uint32)``, as rows
    of 4 uint64 (PCG64's 256 bits)."""
    constant = [INIT_A]

    def hashed(value):
        value = value ^ np.uint32(constant[0])
        constant[0] = constant[0] * MULT_A % ONE_WORD
        value = value * np.uint32(constant[0])
        return value ^ (value >> np.uint32(SHIFT))

    zero = np.zeros_like(entropy)
    pool = [hashed(entropy)] + [hashed(zero) for _ in range(POOL - 1)]
    for source in range(POOL):
        for target in range(POOL):
            if source != target:
                mixed = (np.uint32(MIX_L) * pool[target]
                         - np.uint32(MIX_R) * hashed(pool[source]))
                pool[target] = mixed ^ (mixed >> np.uint32(SHIFT))
    words = np.empty((len(entropy), 2 * POOL), dtype=np.uint32)
    constant = INIT_B
    for place in range(2 * POOL):
        value = pool[place % POOL] ^ np.uint32(constant)
        constant = constant * MULT_B % ONE_WORD
        value = value * np.uint32(constant)
        words[:, place] = value ^ (value >> np.uint32(SHIFT))
    wide = words.astype(np.uint64)  # numpy's uint64 words: each pair's first word low
    return wide[:, 0::2] | (wide[:, 1::2] << np.uint64(32))
