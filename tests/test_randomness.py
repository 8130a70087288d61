"""A run's random numbers (gaqueens/ga/randomness.py): the hash its docstring gives, worked in
plain Python integers; a draw depends on its address alone (run, generation, stream, index),
not on the batch; the laws of its integers, uniforms and permutations; and it is the one
module of the GA that makes random numbers."""

import ast
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gaqueens.ga import randomness

MASK = 2**64 - 1
G = 0x9E3779B97F4A7C15
PACKAGE = Path(randomness.__file__).parents[1]


def mix(z: int) -> int:
    """SplitMix64's output function, in Python integers (Steele, Lea and Flood 2014)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def word(seed: int, generation: int, stream: int, index: int) -> int:
    """The docstring's word, read plainly."""
    key = mix((seed + G) & MASK)
    start = mix((key + G * (stream * 2**32 + generation + 1)) & MASK)
    return mix((start + G * (index + 1)) & MASK)


def test_a_key_is_splitmix64s_first_output_from_the_seed():
    """SplitMix64's published first outputs from states 0 and 1234567."""
    assert randomness.keys([0, 1234567]).tolist() == [0xE220A8397B1DCDAF, 6457827717110365317]


@settings(max_examples=100, deadline=None)
@given(seeds=st.lists(st.integers(-2**70, 2**70), min_size=1, max_size=4),
       generation=st.integers(0, 10**9), stream=st.integers(0, len(randomness.STREAMS) - 1),
       shape=st.sampled_from([(1,), (3,), (2, 3), (4, 1, 2)]))
def test_every_word_is_the_docstrings_hash_of_its_address(seeds, generation, stream, shape):
    made = randomness.words(randomness.keys(seeds), generation, stream, shape)
    assert made.shape == (len(seeds), *shape) and made.dtype == np.uint64
    for run, seed in enumerate(seeds):
        expected = [word(seed % 2**64, generation, stream, i) for i in range(int(np.prod(shape)))]
        assert made[run].reshape(-1).tolist() == expected


@settings(max_examples=60, deadline=None)
@given(seeds=st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=6, unique=True),
       data=st.data())
def test_a_runs_draws_do_not_depend_on_its_batch(seeds, data):
    """Any run of any batch draws what it draws alone, whatever its place."""
    place = data.draw(st.integers(0, len(seeds) - 1))
    generation, stream = data.draw(st.integers(0, 500)), data.draw(st.integers(0, 5))
    together, alone = randomness.keys(seeds), randomness.keys([seeds[place]])
    for draw in (lambda k: randomness.integers(k, generation, stream, 7, (5, 2)),
                 lambda k: randomness.uniform(k, generation, stream, (4,)),
                 lambda k: randomness.permutations(k, 3, 9)):
        assert np.array_equal(draw(together)[place], draw(alone)[0])


def test_integers_are_the_high_half_times_the_bound_shifted_down():
    keys = randomness.keys([5])
    made = randomness.integers(keys, 3, randomness.SWAPS, (10, 9), (4, 1, 2))
    words = randomness.words(keys, 3, randomness.SWAPS, (4, 1, 2))
    for value, raw, high in zip(made.reshape(-1), words.reshape(-1), [10, 9] * 4):
        assert value == ((int(raw) >> 32) * high) >> 32
    assert (made[..., 0] < 10).all() and (made[..., 1] < 9).all() and made.dtype == np.int64


@settings(max_examples=40, deadline=None)
@given(high=st.integers(1, 2**32), seed=st.integers(0, 2**64 - 1))
def test_integers_stay_below_their_bound(high, seed):
    made = randomness.integers(randomness.keys([seed]), 1, randomness.PARENTS, high, (200,))
    assert ((0 <= made) & (made < high)).all()


def test_integers_and_uniforms_are_uniform():
    """Chi-square and Kolmogorov-Smirnov over many runs' draws (scipy.stats), at 0.001."""
    from scipy import stats

    keys = randomness.keys(range(2000))
    counts = np.bincount(randomness.integers(keys, 7, randomness.PARENTS, 20, (10,)).ravel(),
                         minlength=20)
    assert stats.chisquare(counts).pvalue > 0.001
    assert stats.kstest(randomness.uniform(keys, 7, randomness.CHOICES, (5,)).ravel(),
                        "uniform").pvalue > 0.001


def test_streams_and_generations_give_other_numbers():
    keys = randomness.keys([1, 2])
    drawn = [randomness.words(keys, g, s, (8,)) for g in (1, 2) for s in (1, 2)]
    assert len({tuple(d.ravel().tolist()) for d in drawn}) == 4
    assert not np.array_equal(drawn[0][0], drawn[0][1])  # two runs


@settings(max_examples=40, deadline=None)
@given(seeds=st.lists(st.integers(0, 10**9), min_size=1, max_size=3), count=st.integers(1, 5),
       n=st.integers(1, 40))
def test_permutations_are_permutations(seeds, count, n):
    made = randomness.permutations(randomness.keys(seeds), count, n)
    assert made.shape == (len(seeds), count, n)
    assert (np.sort(made, axis=2) == np.arange(n)).all()


def test_every_placement_of_a_queen_is_as_likely_in_the_first_population():
    """Each position holds each column about as often (chi-square at 0.001)."""
    from scipy import stats

    made = randomness.permutations(randomness.keys(range(500)), 20, 6).reshape(-1, 6)
    for position in range(6):
        assert stats.chisquare(np.bincount(made[:, position], minlength=6)).pvalue > 0.001


GA_FILES = [*sorted((PACKAGE / "ga").glob("*.py")),
            PACKAGE / "problems" / "nqueens" / "generation_kernel.py"]
DEAP_STYLE = {"operators.py", "deap_engine.py"}  # DEAP's way: module random, a RandomBinding a run


def test_randomness_is_the_only_module_of_the_ga_that_makes_random_numbers():
    """No other module of the GA names numpy's random module or makes a random.Random; only
    the operators written DEAP's way (bound to a run's generator by randomness.RandomBinding) and
    the DEAP engine (which hands DEAP the module random itself) import random."""
    for path in GA_FILES:
        if path.name == "randomness.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in ("random", "default_rng",
                                                                "SeedSequence", "Generator"):
                assert not (isinstance(node.value, ast.Name) and node.value.id in ("np",
                                                                                  "numpy")), path
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id == "random":
                assert node.attr not in ("Random", "seed", "SystemRandom"), path
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                if "random" in names or any(n.startswith("numpy.random") for n in names):
                    assert path.name in DEAP_STYLE and isinstance(node, ast.Import), path
