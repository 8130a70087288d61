"""The store's packed traces (gaqueens/runtime/store.py, pack and unpack): zlib's format, so
that Python's own zlib reads them, and the stores of earlier gaqueens (zlib's compress, and
before it numpy's np.save) read back as they were written."""

import io
import zlib

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from gaqueens.core.result import TRACE_COLUMNS
from gaqueens.runtime.store import pack, unpack

TRACES = st.integers(1, 300).flatmap(lambda rows: hnp.arrays(
    np.float64, (rows, len(TRACE_COLUMNS)),
    elements=st.floats(allow_nan=False, allow_infinity=False, width=64)))


@given(TRACES)
@settings(max_examples=60, deadline=None)
def test_a_trace_reads_back_bit_for_bit_and_zlib_reads_it_too(trace):
    blob = pack(trace)
    assert unpack(blob).tobytes() == trace.tobytes()
    assert zlib.decompress(blob) == trace.astype("<f8").tobytes()


@given(TRACES)
@settings(max_examples=30, deadline=None)
def test_the_traces_of_earlier_stores_read_back(trace):
    by_zlib = zlib.compress(trace.astype("<f8").tobytes(), 1)
    assert unpack(by_zlib).tobytes() == trace.tobytes()
    saved = io.BytesIO()
    np.save(saved, trace)
    assert unpack(zlib.compress(saved.getvalue())).tobytes() == trace.tobytes()


def test_a_real_generation_row():
    trace = np.array([[0, 20, 3, 5, 9, 5.1], [1, 40, 0, 4, 8, 4.35]])
    assert unpack(pack(trace)).tolist() == trace.tolist()
