"""The exported tables (runs.csv, summary.csv) read back, and compared cell by cell with the
same tables exported again in memory, for ``python -m gaqueens.verify``.

Both sides are compared as the text of their cells, so that any change shows: cells must be
equal, or both numbers equal to a relative RELATIVE (a CSV keeps Python's shortest round-trip
form of a float, so an untouched number comes back exact).
"""

from __future__ import annotations

import io
import math
from pathlib import Path

import numpy as np
import pandas as pd

RELATIVE = 1e-9
TEXT = ("algorithm", "unit", "solution", "placements", "verdict")
WHOLE = ("board", "seed", "conflicts", "generations", "work")  # in runs.csv
NUMBERS = (*WHOLE, "seconds")
SOLVED = {"True": True, "False": False}


def read_runs(source) -> pd.DataFrame:
    """runs.csv (a path or a file object) with its numbers as numbers: a cell that is not one
    becomes NaN, and ``solved`` other than True or False None, for the verifier to refuse
    (gaqueens/runtime/claims.py)."""
    frame = pd.read_csv(source, dtype={column: str for column in (*TEXT, "solved")})
    for column in NUMBERS:
        if column in frame.columns:
            values = pd.to_numeric(frame[column], errors="coerce")
            if column in WHOLE and values.notna().all() and (values == values.round()).all():
                values = values.astype("int64")
            frame[column] = values
    if "solved" in frame.columns:
        frame["solved"] = [SOLVED.get(value) for value in frame["solved"]]
    return frame


def _text(source) -> pd.DataFrame:
    return pd.read_csv(source, dtype=str, keep_default_na=False)


def same(cell: str, expected: str) -> bool:
    """Whether two cells agree: the same text, or numbers within RELATIVE of each other."""
    if cell == expected:
        return True
    try:
        return math.isclose(float(cell), float(expected), rel_tol=RELATIVE, abs_tol=1e-12)
    except ValueError:
        return False


def _named(key: tuple) -> str:
    algorithm, board, *seed = key
    return f"{algorithm} on board {board}" + (f", seed {seed[0]}" if seed else "")


def compare(path: Path, expected: pd.DataFrame, keys: tuple[str, ...],
            skip: tuple[str, ...] = ()) -> list[str]:
    """What differs between the table at ``path`` and ``expected`` (exported in memory), row by
    row as named by the ``keys`` columns, the columns ``skip`` aside; a line each."""
    name = Path(path).name
    if not Path(path).exists():
        return [f"{name}: missing"]
    actual = _text(path)
    expected = _text(io.StringIO(expected.to_csv(index=False)))
    if list(actual.columns) != list(expected.columns):
        return [f"{name}: its columns are {', '.join(map(str, actual.columns))}; expected "
                f"{', '.join(expected.columns)}"]
    found = list(zip(*(actual[k] for k in keys)))
    wanted = list(zip(*(expected[k] for k in keys)))
    if len(set(found)) != len(found):
        return [f"{name}: a row appears twice"]
    if set(found) != set(wanted):
        lacking = [key for key in wanted if key not in set(found)]
        extra = [key for key in found if key not in set(wanted)]
        problems = []
        if lacking:
            problems.append(f"{name}: lacks {len(lacking)} rows, e.g. {_named(lacking[0])}")
        if extra:
            problems.append(f"{name}: holds {len(extra)} rows it should not, e.g. "
                            f"{_named(extra[0])}")
        return problems
    problems = [] if found == wanted else [f"{name}: the rows are not in the experiment's order"]
    row_of = {key: i for i, key in enumerate(found)}
    places = np.array([row_of[key] for key in wanted], dtype=np.int64)
    for column in expected.columns:
        if column in keys or column in skip:
            continue
        values = actual[column].to_numpy(dtype=object)[places]
        others = expected[column].to_numpy(dtype=object)
        for i in np.flatnonzero(values != others):  # equal text is the same cell; else same()
            value, other = values[i], others[i]
            if not same(value, other):
                problems.append(f"{name}: {_named(wanted[i])}: {column} is {value!r}, "
                                f"expected {other!r}")
    return problems
