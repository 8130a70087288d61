"""The runs of one output folder, kept in SQLite (runs.sqlite), from which every table, plot and
runs.csv is exported.

Each batch of finished runs is committed in one transaction as it arrives (write-ahead log,
synchronous=FULL), so a kill -9 or a power loss leaves every committed run whole and none
half-written. A row's key is (algorithm, board, seed): a rerun adds only the missing ones. The
store remembers each algorithm's settings and refuses runs of other settings unless the sweep
starts afresh. One sweep at a time may write: it holds an exclusive lock on runs.lock, which the
system releases when the process ends, however it ends, and which no child process inherits
(gaqueens/runtime/lock.py).

A write that fails (the disk full, a file size limit or a quota reached, a failing device)
raises WriteFailed: the transaction is rolled back, and every batch committed before stays whole
(tests/test_faults.py lowers the file size limit of a real sweep and checks the store).
"""

from __future__ import annotations

import io
import json
import sqlite3
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from isal import isal_zlib

from gaqueens.core.errors import BadInput, Fault
from gaqueens.runtime import lock
from gaqueens.core.result import TRACE_COLUMNS, Result

FILE = "runs.sqlite"
RUN_COLUMNS = (
    "algorithm", "board", "seed", "solved", "conflicts", "generations", "work", "unit",
    "seconds", "solution",
)
SCHEMA = """
CREATE TABLE IF NOT EXISTS algorithms (name TEXT PRIMARY KEY, settings TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    algorithm TEXT NOT NULL, board INTEGER NOT NULL, seed INTEGER NOT NULL,
    solved INTEGER NOT NULL, conflicts INTEGER NOT NULL, generations INTEGER NOT NULL,
    work INTEGER NOT NULL, unit TEXT NOT NULL, seconds REAL NOT NULL,
    solution TEXT NOT NULL, trace BLOB, code TEXT,
    PRIMARY KEY (algorithm, board, seed)
);
"""
UNKNOWN_CODE = "code not recorded (a store from before runs recorded their code)"


class Busy(BadInput):
    """Another sweep is writing into the same folder."""


class Unreadable(BadInput):
    """The folder's runs.sqlite is not a store gaqueens can read."""


class WriteFailed(Fault):
    """Writing runs.sqlite failed: the disk is full, a file size limit or quota is reached, or
    the device failed. The runs committed before are kept."""


def _write_failure(error: sqlite3.Error) -> bool:
    """Whether SQLite's ``error`` is a failed write (SQLITE_FULL: no room; SQLITE_IOERR_*: the
    system refused a write, as with EFBIG past a file size limit) rather than bad data."""
    name = getattr(error, "sqlite_errorname", None)  # Python 3.11 and later
    if name is not None:
        return name == "SQLITE_FULL" or name.startswith("SQLITE_IOERR")
    text = str(error)
    return "disk is full" in text or "disk I/O error" in text


class Store:
    """Opens (creating if needed) the store of ``folder``; with ``write=True`` it takes the
    folder's lock first."""

    def __init__(self, folder, *, write: bool = False):
        self.folder = Path(folder)
        self._lock = self._read = None
        if write:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._lock = lock.take(self.folder / "runs.lock")
            if self._lock is None:
                raise Busy(f"{self.folder}: another sweep is writing here; wait for it or "
                           "choose another --out")
        elif not (self.folder / FILE).exists():
            raise FileNotFoundError(f"{self.folder / FILE}: no stored runs")
        self.db = sqlite3.connect(self.folder / FILE, timeout=30)
        try:
            if write:
                with self._writing():
                    self.db.execute("PRAGMA journal_mode=WAL")
                    self.db.execute("PRAGMA synchronous=FULL")
                    self.db.executescript(SCHEMA)
                    columns = [row[1] for row in self.db.execute("PRAGMA table_info(runs)")]
                    if "code" not in columns:  # a store from before runs recorded their code
                        self.db.execute("ALTER TABLE runs ADD COLUMN code TEXT")
                    if "evaluations" in columns:  # from before the column was named work
                        self.db.execute("ALTER TABLE runs RENAME COLUMN evaluations TO work")
            else:  # an older store is read as it is, through a view, and never changed
                columns = [row[1] for row in self.db.execute("PRAGMA table_info(runs)")]
                if "evaluations" in columns or "code" not in columns:
                    named = ["evaluations AS work" if c == "evaluations" else c for c in columns]
                    named += [] if "code" in columns else ["NULL AS code"]
                    self.db.execute(f"CREATE TEMP VIEW runs AS SELECT {', '.join(named)} "
                                    "FROM main.runs")
            self.db.execute("SELECT algorithm, board, seed, trace FROM runs LIMIT 1")
        except WriteFailed:
            self.close()
            raise
        except sqlite3.DatabaseError as error:
            self.close()
            raise Unreadable(f"{self.folder / FILE}: not a store of gaqueens runs ({error}); "
                             "remove it or choose another --out") from None

    def close(self):
        self.db.close()
        if self._lock is not None:
            lock.release(self._lock)
            self._lock = None

    @contextmanager
    def _writing(self):
        """One transaction; a failed write becomes WriteFailed, after the rollback."""
        self._read = None  # what ``runs`` read is out of date
        try:
            with self.db:
                yield
        except sqlite3.OperationalError as error:
            if not _write_failure(error):
                raise
            raise WriteFailed(f"{self.folder}: writing {FILE} failed ({error}): the disk is "
                              "full, a file size limit is reached or the device failed") from error

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- settings ----

    def settings(self) -> dict[str, dict]:
        return {name: json.loads(s) for name, s in self.db.execute("SELECT name, settings FROM algorithms")}

    def differences(self, settings: dict[str, dict]) -> dict[str, list[str]]:
        """Per algorithm whose stored settings differ from ``settings`` (algorithm -> resolved
        settings): what differs, one line per key."""
        stored = self.settings()
        return {
            name: [f"{name}.{key}: stored {stored[name].get(key)!r}, now {value.get(key)!r}"
                   for key in sorted(set(value) | set(stored[name]))
                   if stored[name].get(key) != value.get(key)]
            for name, value in settings.items()
            if name in stored and stored[name] != value
        }

    def use(self, settings: dict[str, dict]) -> None:
        """Records the settings of algorithms new to the store."""
        with self._writing():
            self.db.executemany(
                "INSERT OR IGNORE INTO algorithms VALUES (?, ?)",
                [(name, json.dumps(value, sort_keys=True)) for name, value in settings.items()],
            )

    def discard(self, names) -> None:
        """Forgets the runs and settings of the algorithms ``names``."""
        with self._writing():
            for name in names:
                self.db.execute("DELETE FROM runs WHERE algorithm = ?", (name,))
                self.db.execute("DELETE FROM algorithms WHERE name = ?", (name,))

    # ---- runs ----

    def keys(self) -> set[tuple[str, int, int]]:
        return set(self.db.execute("SELECT algorithm, board, seed FROM runs"))

    def add(self, algorithm: str, unit: str, board: int, results: list[tuple[int, Result]],
            code: str) -> None:
        """Stores finished runs of one algorithm and board, made by ``code``
        (manifest.code_identity), all in one transaction."""
        rows = [(algorithm, board, seed, bool(r.solved), int(r.conflicts), int(r.generations),
                 int(r.work), unit, float(r.seconds), " ".join(map(str, r.solution.tolist())),
                 None if r.trace is None else pack(r.trace), code) for seed, r in results]
        with self._writing():
            self.db.executemany(f"INSERT INTO runs ({', '.join(RUN_COLUMNS)}, trace, code) "
                                f"VALUES ({', '.join('?' * 12)})", rows)

    def copy_runs(self, source: str, target: str, places: set) -> None:
        """Stores the runs of ``source`` on the (board, seed) ``places`` under the name
        ``target`` too: an entry of the same settings makes the same runs."""
        if not places:
            return
        columns = ", ".join((*RUN_COLUMNS[1:], "trace", "code"))
        rows = [(target, *row) for row in self.each(source, columns) if (row[0], row[1]) in places]
        with self._writing():
            self.db.executemany(f"INSERT INTO runs (algorithm, {columns}) "
                                f"VALUES ({', '.join('?' * 12)})", rows)

    # ---- the code that made the runs ----

    def codes(self, keys=None) -> dict[str, dict[str, int]]:
        """Per algorithm, its stored runs (those of ``keys``, (algorithm, board, seed), if
        given) per code that made them (UNKNOWN_CODE: from before runs recorded it)."""
        out: dict[str, dict[str, int]] = {}
        if keys is None:
            rows = self.db.execute("SELECT algorithm, code, count(*) FROM runs "
                                   "GROUP BY algorithm, code ORDER BY algorithm, code")
        else:  # from the table ``runs`` read, if read ("" for no code), in SQL's order
            rows = self.db.execute("SELECT algorithm, board, seed, COALESCE(code, '') FROM runs") \
                if self._read is None else zip(*(self._read[c].tolist() for c in _KEYED))
            counted = Counter((a, c) for a, b, s, c in rows if (a, b, s) in keys)
            rows = [(a, c, counted[a, c]) for a, c in sorted(counted)]
        for algorithm, code, count in rows:
            made = out.setdefault(algorithm, {})
            made[code or UNKNOWN_CODE] = made.get(code or UNKNOWN_CODE, 0) + count
        return out

    def discard_other_code(self, codes: dict[str, str]) -> None:
        """Forgets the runs of each algorithm of ``codes`` that other code than its own made,
        to compute them again."""
        with self._writing():
            for algorithm, code in codes.items():
                self.db.execute("DELETE FROM runs WHERE algorithm = ? AND "
                                "(code IS NULL OR code != ?)", (algorithm, code))

    def each(self, algorithm: str | None = None, columns: str = f"{', '.join(RUN_COLUMNS)}, trace",
             where: str = "TRUE"):
        """Every stored run (of ``algorithm`` if given, where ``where`` holds), one at a time, by
        key: its ``columns``, by default its RUN_COLUMNS values and its trace, still packed (None
        for a baseline; :func:`unpack` reads it)."""
        one = " AND algorithm = ?" if algorithm is not None else ""
        return self.db.execute(f"SELECT {columns} FROM runs WHERE {where}{one} ORDER BY "
                               "algorithm, board, seed", (algorithm,) if one else ())

    def runs(self, keys=None):
        """The stored runs as a DataFrame with RUN_COLUMNS, ordered by algorithm, board and
        seed; only those of ``keys`` (algorithm, board, seed) if given. A table of its own."""
        return _only(self._table(), keys).drop(columns="code")

    def _table(self):
        """What ``runs`` reads and each run's code ("" if none): read once until a write."""
        if self._read is None:
            import pandas as pd

            query = f"SELECT {', '.join(RUN_COLUMNS)}, COALESCE(code, '') AS code FROM runs"
            self._read = pd.read_sql_query(query + " ORDER BY algorithm, board, seed", self.db)
            self._read["solved"] = self._read["solved"].astype(bool)
        return self._read

    def trace_arrays(self, keys=None, algorithm: str | None = None) -> dict[tuple, np.ndarray]:
        """What ``traces`` gives, as an array per (algorithm, board, seed) (TRACE_COLUMNS,
        float64), in key order, without building the table; of one ``algorithm`` if given."""
        return {(a, b, s): unpack(blob) for a, b, s, blob in self.each(
            algorithm, "algorithm, board, seed, trace", "trace IS NOT NULL")
            if keys is None or (a, b, s) in keys}

    def traces(self, keys=None):
        """The stored traces, a row per (algorithm, board, seed, generation), with
        TRACE_COLUMNS; only those of ``keys`` if given."""
        import pandas as pd

        by_run = self.trace_arrays(keys)
        names, boards, seeds = zip(*by_run) if by_run else ((), (), ())
        lengths = [len(array) for array in by_run.values()]
        table = np.concatenate(list(by_run.values())) if by_run else np.empty((0, TRACE_WIDTH))
        frame = pd.DataFrame(table, columns=TRACE_COLUMNS).astype(
            {column: "int64" for column in ("generation", "evaluations", "best", "worst")})
        for column, values, kind in (("seed", seeds, "int64"), ("board", boards, "int64"),
                                     ("algorithm", names, object)):
            frame.insert(0, column, np.repeat(np.array(values, dtype=kind), lengths))
        return frame


def _only(frame, keys):
    """The rows of ``frame`` whose (algorithm, board, seed) is in ``keys`` (all if None)."""
    if keys is None:
        return frame
    index = zip(*(frame[column].tolist() for column in ("algorithm", "board", "seed")))
    wanted = np.fromiter((key in keys for key in index), dtype=bool, count=len(frame))
    return frame if wanted.all() else frame.loc[wanted].reset_index(drop=True)


TRACE_WIDTH, _KEYED = len(TRACE_COLUMNS), ("algorithm", "board", "seed", "code")


def other_code(made_by: dict[str, dict[str, int]], codes: dict[str, str]) -> dict:
    """Of the runs ``made_by`` counts (Store.codes), those of each algorithm of ``codes`` that
    other code than its own made: algorithm -> that code -> runs."""
    found = {algorithm: {code: count for code, count in made.items() if code != codes[algorithm]}
             for algorithm, made in made_by.items() if algorithm in codes}
    return {algorithm: made for algorithm, made in found.items() if made}


def pack(trace: np.ndarray) -> bytes:
    """A trace (rows of TRACE_COLUMNS) as zlib's format by ISA-L (isal) at level 1: packed and
    read faster than by zlib, which the exports of results/scale need to keep their goal."""
    return isal_zlib.compress(np.ascontiguousarray(trace, dtype="<f8").tobytes(), 1)


def unpack(blob: bytes) -> np.ndarray:
    """A trace packed by ``pack`` (or by zlib itself, as before isal), or by np.save before."""
    raw = isal_zlib.decompress(blob)
    if raw.startswith(b"\x93NUMPY"):
        return np.load(io.BytesIO(raw), allow_pickle=False)
    return np.frombuffer(raw, dtype="<f8").reshape(-1, TRACE_WIDTH)


def read_runs(folder, keys=None):
    """The stored runs of an output folder as a pandas DataFrame."""
    with Store(folder) as store:
        return store.runs(keys)


def read_traces(folder, keys=None):
    """The stored GA traces of an output folder as a pandas DataFrame."""
    with Store(folder) as store:
        return store.traces(keys)
