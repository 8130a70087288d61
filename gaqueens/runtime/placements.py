"""Many placements read at once from their text, as the store and runs.csv write them: a
board's columns as decimal numbers separated by single spaces.

``in_bulk`` reads a group of one board in a few passes over the texts' bytes, where parsing
each number in Python took most of the exports' check of the 100,000-run sweep (0.75 of
0.8 s). It reads only texts of the plain form, numbers of 1 to as many digits as the board's
last column has; for any other text (other spacing, signs, leading zeros that make a number
longer, another board's count of columns) it returns None, and the caller reads each text as
``claims.placement`` does. Where it reads, it gives what ``placement`` gives
(tests/test_placements.py checks it on texts drawn at random).
"""

from __future__ import annotations

import numpy as np

SPACE, ZERO = ord(" "), ord("0")
POWERS = 10 ** np.arange(19, dtype=np.int64)  # a digit's worth by its place from the right


def in_bulk(texts, board: int) -> np.ndarray | None:
    """``texts`` as an int64 array of a row per text and ``board`` columns, or None where a
    text is not ``board`` plain numbers (the module's docstring)."""
    count, most = len(texts), len(str(board - 1))  # most: the digits of the last column
    if not board or not count or most > 15 or not all(type(text) is str for text in texts):
        return None  # (15 digits: the bincount below sums in float64, exact below 2**53)
    try:
        data = np.frombuffer(" ".join(texts).encode("ascii"), dtype=np.uint8)
    except UnicodeEncodeError:
        return None
    digit = (data >= ZERO) & (data <= ZERO + 9)
    space = data == SPACE
    if not (digit | space).all():
        return None
    spaces = np.flatnonzero(space)
    ends = np.r_[spaces, len(data)]  # each number's end, exclusive
    widths = np.diff(np.r_[-1, ends]) - 1
    if len(widths) != count * board or widths.min() < 1 or widths.max() > most:
        return None
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=count)
    starts = np.cumsum(lengths + 1) - lengths - 1
    inside = np.searchsorted(spaces, starts + lengths) - np.searchsorted(spaces, starts)
    if (inside != board - 1).any():  # each text's own count of numbers
        return None
    at = np.flatnonzero(digit)
    number = np.cumsum(space)[at]  # the number each digit belongs to
    worth = (data[at] - ZERO).astype(np.int64) * POWERS[ends[number] - at - 1]
    values = np.bincount(number, weights=worth, minlength=len(widths))
    return values.astype(np.int64).reshape(count, board)
