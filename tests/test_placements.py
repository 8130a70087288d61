"""Placements read in bulk (gaqueens/runtime/placements.py): where ``in_bulk`` reads a group of
texts it gives what ``claims.placement`` gives for each, and it reads every group of plain
texts, as the store writes them; any other text makes it give None."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gaqueens.runtime.claims import placement
from gaqueens.runtime.placements import in_bulk


def plain(columns) -> str:
    return " ".join(map(str, columns))


@st.composite
def groups(draw):
    board = draw(st.integers(1, 300))
    count = draw(st.integers(1, 6))
    return board, [plain(draw(st.lists(st.integers(0, board - 1), min_size=board,
                                       max_size=board))) for _ in range(count)]


@given(groups())
@settings(max_examples=200, deadline=None)
def test_plain_texts_are_read_as_placement_reads_them(group):
    board, texts = group
    rows = in_bulk(texts, board)
    assert rows is not None and rows.dtype == np.int64 and rows.shape == (len(texts), board)
    assert rows.tolist() == [placement(text) for text in texts]


# one character of a plain text changed, added or removed, at random
EDITS = st.sampled_from([" ", "  ", "", "-", "+", "0", "00", "9", "x", "\t", "\n", "é", "1.5"])


@given(groups(), st.data())
@settings(max_examples=300, deadline=None)
def test_any_other_text_is_none_or_read_as_placement_reads_it(group, data):
    board, texts = group
    which = data.draw(st.integers(0, len(texts) - 1))
    text = texts[which]
    at = data.draw(st.integers(0, len(text)))
    cut = data.draw(st.integers(0, 1))
    texts[which] = text[:at] + data.draw(EDITS) + text[at + cut:]
    rows = in_bulk(texts, board)
    if rows is not None:  # read: then exactly as placement reads each text
        assert rows.tolist() == [placement(t) for t in texts]


@pytest.mark.parametrize("texts, board", [
    (["0 1", "1 0 "], 2),  # a trailing space
    (["0  1"], 2),  # two spaces
    (["01 0"], 2),  # a leading zero makes a number longer than the last column's
    (["0 1 2"], 2),  # another board's count of columns
    (["0 1", "1"], 2),  # the count per text, not only in all
    (["0 1", "1 0 1", "0"], 2),
    (["-1 0"], 2),
    ([None, "0 1"], 2),
    (["0 1"], 0),
    ([], 2),
])
def test_texts_not_plain_are_left_to_placement(texts, board):
    assert in_bulk(texts, board) is None


def test_a_hand_worked_group():
    assert in_bulk(["3 1 0 2", "2 0 3 1"], 4).tolist() == [[3, 1, 0, 2], [2, 0, 3, 1]]
    eleven = list(range(10, -1, -1))  # numbers of one and two digits
    assert in_bulk([plain(eleven), plain(eleven[::-1])], 11).tolist() == [eleven, eleven[::-1]]
