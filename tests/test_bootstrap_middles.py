"""The bootstrap's picks counted once: the middle picks read from the counts are those of
sorting each resample, in the band, outside it and past the counts' memory, and a generator
met again in a state already drawn from goes on as if it had drawn, from the counts or from
the places kept for the same runs (rules:
gaqueens/reports/bootstrap_middles.py)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gaqueens.reports import bootstrap_middles


def sorted_middle(seed, order, rows, size):
    """The plain way: each row's picks as places in sorted order, sorted."""
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    picks = np.sort(rank[np.random.default_rng(seed).integers(0, len(order), (rows, size))], axis=1)
    return picks[:, (size - 1) // 2], picks[:, size // 2]


@pytest.fixture(autouse=True)
def nothing_kept():
    bootstrap_middles._kept.clear()
    bootstrap_middles._places.clear()
    yield
    bootstrap_middles._kept.clear()
    bootstrap_middles._places.clear()


@settings(deadline=None)  # no test asserts on time (the suite runs on busy machines)
@given(st.integers(1, 300), st.integers(1, 400), st.integers(1, 60), st.integers(0, 2**32),
       st.sampled_from([0, 1, bootstrap_middles.BAND]), st.sampled_from([1, 7, bootstrap_middles.CHUNK]))
def test_the_middle_picks_are_those_of_sorted_resamples(n, size, rows, seed, band, chunk):
    """With a band of no spread at all most rows fall outside it and are counted in full;
    sizes below n / 4 take the sorting path; the picks counted a chunk of rows at a time are
    those of one draw, and the generator goes on from where that draw leaves it."""
    order = np.random.default_rng(seed + 1).permutation(n)
    kept = bootstrap_middles.BAND, bootstrap_middles.CHUNK
    bootstrap_middles.BAND, bootstrap_middles.CHUNK = band, chunk
    rng = np.random.default_rng(seed)
    try:
        ours = bootstrap_middles.middle(rng, order, rows, size)
    finally:
        bootstrap_middles.BAND, bootstrap_middles.CHUNK = kept
        bootstrap_middles._kept.clear()
        bootstrap_middles._places.clear()
    for mine, plain in zip(ours, sorted_middle(seed, order, rows, size)):
        np.testing.assert_array_equal(mine, plain)
    once = np.random.default_rng(seed)
    once.integers(0, n, (rows, size))
    assert rng.bit_generator.state == once.bit_generator.state  # the waiting half included


def test_a_state_drawn_from_again_gives_the_same_picks_and_advances_the_generator():
    order = np.arange(500)[::-1]
    first, again, fresh = (np.random.default_rng(7) for _ in range(3))
    before = bootstrap_middles.middle(first, order, 200, 500)
    assert len(bootstrap_middles._kept) == 1
    after = bootstrap_middles.middle(again, order, 200, 500)
    assert len(bootstrap_middles._kept) == 1  # counted once
    for a, b in zip(before, after):
        np.testing.assert_array_equal(a, b)
    fresh.integers(0, 500, (200, 500))
    assert again.integers(0, 2**62) == fresh.integers(0, 2**62) == first.integers(0, 2**62)


def test_the_counts_kept_stay_within_their_memory(monkeypatch):
    monkeypatch.setattr(bootstrap_middles, "COUNTS", 3 * 100 * 400)  # three draws' counts, a byte each
    order = np.arange(400)
    for seed in range(5):
        bootstrap_middles.middle(np.random.default_rng(seed), order, 100, 400)
    assert sum(counts.nbytes for counts, _ in bootstrap_middles._kept.values()) <= bootstrap_middles.COUNTS
    assert len(bootstrap_middles._kept) == 3
    assert all(counts.dtype == np.uint8 for counts, _ in bootstrap_middles._kept.values())


def test_a_run_picked_more_often_than_a_byte_counts_keeps_its_count(monkeypatch):
    """Two runs resampled 1,000 times: each is picked about 500 times a row, past a byte; the
    int32 counts are kept while they fit in COUNTS, and used but not kept once they do not."""
    order = np.array([1, 0])
    for room, kept in ((10_000, 1), (100, 0)):  # the counts: 2 * 20 bytes, 2 * 20 * 4 as int32
        bootstrap_middles._kept.clear()
        bootstrap_middles._places.clear()
        monkeypatch.setattr(bootstrap_middles, "COUNTS", room)
        ours = bootstrap_middles.middle(np.random.default_rng(3), order, 20, 1000)
        assert len(bootstrap_middles._kept) == kept
        if kept:
            (counts, _), = bootstrap_middles._kept.values()
            assert counts.dtype == np.int32 and counts.sum() == 20 * 1000
        for mine, plain in zip(ours, sorted_middle(3, order, 20, 1000)):
            np.testing.assert_array_equal(mine, plain)


def test_draws_too_large_to_count_are_sorted(monkeypatch):
    monkeypatch.setattr(bootstrap_middles, "COUNTS", 1000)
    order = np.arange(300)
    ours = bootstrap_middles.middle(np.random.default_rng(2), order, 50, 300)
    assert not bootstrap_middles._kept
    for mine, plain in zip(ours, sorted_middle(2, order, 50, 300)):
        np.testing.assert_array_equal(mine, plain)


def test_the_same_draw_of_other_runs_reads_the_counts_again_and_of_the_same_runs_the_places():
    """The comparisons' reference sample meets the same draw once per pair: its places are
    kept; another sample of the same size gets its own from the same counts."""
    ours, theirs = np.arange(400)[::-1], np.random.default_rng(5).permutation(400)
    for order in (ours, theirs, ours):
        rng, fresh = np.random.default_rng(11), np.random.default_rng(11)
        found = bootstrap_middles.middle(rng, order, 100, 400)
        for mine, plain in zip(found, sorted_middle(11, order, 100, 400)):
            np.testing.assert_array_equal(mine, plain)
        fresh.integers(0, 400, (100, 400))
        assert rng.integers(0, 2**62) == fresh.integers(0, 2**62)
    assert len(bootstrap_middles._kept) == 1 and len(bootstrap_middles._places) == 2
    with pytest.raises(ValueError):
        found[0][0] = 0  # kept, so not to be changed by whoever gets them


def test_the_places_kept_are_at_most_places(monkeypatch):
    monkeypatch.setattr(bootstrap_middles, "PLACES", 3)
    rng = np.random.default_rng(0)
    for _ in range(5):
        bootstrap_middles.middle(rng, np.random.default_rng(1).permutation(100), 10, 100)
    assert len(bootstrap_middles._places) == 3
