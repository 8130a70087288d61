"""The pool's forked workers (gaqueens/runtime/executors.py, worker.py) start on their tasks
as they are started, and send each result from a thread of their own: a worker goes on with
its next task while this process, busy elsewhere, has not read a large result yet. (Spawned
workers, beside another thread of this process, hold one task at a time by design.)"""

import subprocess
import sys

import pytest

# Tasks go round the two workers in turn: each gets a large result to make (far beyond what a
# pipe holds unread), then a marker to write. Nothing is read until both markers are there;
# run alone, in a process of one thread, whose workers are forked.
SCRIPT = """\
import sys, time
from pathlib import Path
from gaqueens.runtime.executors import Workers

LARGE = 8_000_000

def large(size):
    return bytes(size)

def mark(path):
    Path(path).write_text("ran")
    return path

if __name__ == "__main__":
    marks = sys.argv[1:]
    with Workers(2) as workers:
        made = workers.later(large, [(LARGE,), (LARGE,)])
        marked = workers.later(mark, [(path,) for path in marks])
        workers.start()
        while not all(Path(path).exists() for path in marks):
            time.sleep(0.05)
        print([len(result) for result in made()] == [LARGE, LARGE], marked() == marks)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux only")
def test_forked_workers_run_on_while_this_process_reads_none_of_their_results(tmp_path):
    script = tmp_path / "pool.py"
    script.write_text(SCRIPT)
    marks = [str(tmp_path / "first"), str(tmp_path / "second")]
    try:
        done = subprocess.run([sys.executable, str(script), *marks], capture_output=True,
                              text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("a worker waited for this process to read its result")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]
