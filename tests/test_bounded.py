"""gaqueens.ga.bounded: numpy's Generator.integers numbers, made for many generators at once
from their raw words; checked against Generator.integers itself, and what each generator
draws afterwards against what it would have drawn."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from gaqueens.ga.bounded import Words, integers_many

# ranges of one (no word taken), small ones, powers of two (never a rejection), ranges just
# above 2^31 (about half the words rejected) and 2^32 (the word itself)
RANGES = st.sampled_from([1, 2, 7, 15, 16, 20, 127, 128, 100_000, 2**31 + 1, 2**31 + 7, 2**32])
CALLS = st.lists(st.tuples(st.integers(-5, 5), RANGES, st.integers(0, 40)), min_size=1,
                 max_size=4).map(lambda calls: [(low, low + r, n) for low, r, n in calls])


@pytest.mark.parametrize("compiled", [False, True], ids=["numpy", "compiled"])
@settings(max_examples=60, deadline=None)
@given(seeds=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=5, unique=True),
       shuffled=st.lists(st.integers(0, 9), min_size=5, max_size=5), draws=st.lists(CALLS, min_size=1, max_size=3))
def test_the_numbers_are_numpys_and_so_is_what_follows(compiled, seeds, shuffled, draws):
    """Each generator first shuffles a few rows (numpy leaves a 32-bit half waiting or not),
    then draws the calls through Words, then 64-bit numbers: every number is the one numpy's
    own calls give the same generator, made by numpy's calls or numba's pass
    (gaqueens.ga.bounded_kernel)."""
    ours = [np.random.default_rng(seed) for seed in seeds]
    theirs = [np.random.default_rng(seed) for seed in seeds]
    for k, (mine, plain) in enumerate(zip(ours, theirs)):
        mine.permuted(np.arange(shuffled[k]))
        plain.permuted(np.arange(shuffled[k]))
    words = [Words(generator) for generator in ours]
    for calls in draws:
        made = integers_many(words, calls, compiled)
        for row, plain in enumerate(theirs):
            for (low, high, count), numbers in zip(calls, made):
                expected = plain.integers(low, high, count)
                assert numbers.dtype == np.int64 and np.array_equal(numbers[row], expected)
        for mine, plain in zip(ours, theirs):  # a 64-bit draw takes no waiting half
            assert np.array_equal(mine.random(2), plain.random(2))


def test_words_are_the_raw_outputs_halves_low_first():
    """Hand-worked: seed 0's first raw output is 0xa30febcfd9c2825f; its words are 0xd9c2825f
    and 0xa30febcf, and its first number below 20 is 0xd9c2825f * 20 >> 32 = 17, numpy's."""
    assert np.random.default_rng(0).bit_generator.random_raw() == 0xA30FEBCFD9C2825F
    words = Words(np.random.default_rng(0))
    assert words.take(3).tolist() == [0xD9C2825F, 0xA30FEBCF, 0x82D9D721]
    assert words.waiting == 0x4510BDF8  # the second output's high half waits
    assert (0xD9C2825F * 20) >> 32 == 17 == np.random.default_rng(0).integers(0, 20)
    assert integers_many([Words(np.random.default_rng(0))], [(0, 20, 1)])[0].tolist() == [[17]]


@pytest.mark.parametrize("compiled", [False, True], ids=["numpy", "compiled"])
def test_a_rejected_word_gives_way_to_the_next(compiled):
    """Range 2^31 + 4: seed 0's words 0 and 2 are kept, 1 rejected (the low half of its product
    is below 2^32 mod r), so the second number comes from word 2, as numpy's does, whichever
    pass made the first numbers."""
    r = 2**31 + 4
    raw = np.random.default_rng(0).bit_generator.random_raw(2)
    words = [int(raw[0]) & 0xFFFFFFFF, int(raw[0]) >> 32, int(raw[1]) & 0xFFFFFFFF]
    assert [(w * r) % 2**32 < 2**32 % r for w in words] == [False, True, False]
    made = integers_many([Words(np.random.default_rng(0))], [(0, r, 2)], compiled)[0][0]
    assert made.tolist() == [words[0] * r >> 32, words[2] * r >> 32]
    assert np.array_equal(made, np.random.default_rng(0).integers(0, r, 2))


def test_bad_ranges_and_generators_are_refused():
    words = [Words(np.random.default_rng(1))]
    with pytest.raises(ValueError, match="from 1 to 2\\^32"):
        integers_many(words, [(0, 0, 3)])
    with pytest.raises(ValueError, match="from 1 to 2\\^32"):
        integers_many(words, [(0, 2**32 + 1, 3)])
    with pytest.raises(ValueError, match="not a MT19937"):
        Words(np.random.Generator(np.random.MT19937(1)))
