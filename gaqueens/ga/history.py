"""The batched GA's traces (gaqueens.ga.batched): each run's population fitness and
evaluations per generation, kept for all runs in one buffer and made into the trace rows of
gaqueens.ga.general.trace (TRACE_COLUMNS of gaqueens.core.result)."""

from __future__ import annotations

import numpy as np


class History:
    """Each row's population fitness and evaluations per generation, in a buffer, made into
    trace rows (TRACE_COLUMNS) when it fills (``flush``) or a run ends (``traces``)."""

    def __init__(self, rows: int, mu: int, size: int = 256):
        self.size, self.mu = size, mu
        self.values = np.empty((size, rows, mu), dtype=np.int64)
        self.evaluations = np.empty((size, rows), dtype=np.int64)
        self.first, self.used = 0, 0  # the buffer's first generation, and its rows in use
        self.pieces: dict[int, list[np.ndarray]] = {}  # per seed: its trace rows so far

    def record(self, values: np.ndarray, evaluations: np.ndarray) -> None:
        """Records a generation: each row's population fitness, sorted, and its evaluations."""
        self.values[self.used, : len(values)] = values
        self.evaluations[self.used, : len(values)] = evaluations
        self.used += 1

    def flush(self, places: np.ndarray, seeds: np.ndarray) -> None:
        """Empties the buffer into the trace rows of the rows ``places`` (runs ``seeds``)."""
        for seed, rows in zip(seeds.tolist(), self._rows(places)):
            self.pieces.setdefault(seed, []).append(rows)
        self.first, self.used = self.first + self.used, 0

    def traces(self, places: np.ndarray, seeds: np.ndarray, ends: list[int]) -> list[np.ndarray]:
        """The whole traces of the runs ``seeds`` in rows ``places``, which ended at the
        generations ``ends`` (in the buffer)."""
        return [np.concatenate((*self.pieces.pop(seed, []), rows[: end - self.first + 1]))
                for seed, rows, end in zip(seeds.tolist(), self._rows(places), ends)]

    def keep(self, rows: np.ndarray) -> None:
        """Keeps the buffer's rows ``rows`` (a mask), once emptied: a smaller buffer."""
        count = int(rows.sum())
        self.values, self.evaluations = self.values[:, :count], self.evaluations[:, :count]

    def _rows(self, places: np.ndarray) -> np.ndarray:
        """The buffer's trace rows of the rows ``places`` (places, generations, 6). The
        population is sorted, so its min, median and max are columns; its numbers are whole
        or halves, so these are exact."""
        used, mu = self.used, self.mu
        values = self.values[:used, places].transpose(1, 0, 2)  # (places, used, mu)
        rows = np.empty((len(places), used, 6))
        rows[:, :, 0] = np.arange(self.first, self.first + used)
        rows[:, :, 1] = self.evaluations[:used, places].T
        rows[:, :, 2] = values[:, :, 0]
        rows[:, :, 3] = (values[:, :, (mu - 1) // 2] + values[:, :, mu // 2]) / 2
        rows[:, :, 4] = values[:, :, mu - 1]
        rows[:, :, 5] = values.sum(axis=2) / mu
        return rows
