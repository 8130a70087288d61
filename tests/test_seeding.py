"""gaqueens.ga.seeding: numpy's default_rng(seed) for many seeds at once; each generator's
state and numbers checked against default_rng's own."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gaqueens.ga import seeding

SEEDS = st.one_of(st.integers(0, 2**32 - 1),  # one word of entropy: the fast way
                  st.integers(2**32, 2**70))  # more words: numpy's own SeedSequence


@settings(max_examples=80, deadline=None)
@given(seeds=st.lists(SEEDS, max_size=12))
def test_each_generator_is_default_rngs_for_its_seed(seeds):
    made = seeding.generators(seeds)
    assert len(made) == len(seeds)
    for seed, generator in zip(seeds, made):
        plain = np.random.default_rng(seed)
        assert generator.bit_generator.state == plain.bit_generator.state
        assert generator.integers(0, 1000, 7).tolist() == plain.integers(0, 1000, 7).tolist()
        assert generator.random() == plain.random()


def test_the_edges_of_one_word_and_repeated_seeds():
    seeds = [0, 1, 0, 2**32 - 1, 2**32, 1]
    for seed, generator in zip(seeds, seeding.generators(seeds)):
        assert generator.bit_generator.state == np.random.default_rng(seed).bit_generator.state


def test_generators_are_independent_objects():
    """Two runs of the same seed each draw their own numbers."""
    first, second = seeding.generators([5, 5])
    assert first is not second
    assert first.integers(0, 100, 3).tolist() == second.integers(0, 100, 3).tolist()


def test_the_precomputed_words_serve_pcg64_only():
    words = seeding._states(np.array([3], dtype=np.uint32))[0]
    sequence = seeding._Words(words)
    assert sequence.generate_state(4, np.uint64) is words
    with pytest.raises(ValueError, match="PCG64"):
        sequence.generate_state(8, np.uint32)
