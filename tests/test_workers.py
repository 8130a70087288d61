"""Workers (gaqueens/runtime/executors.py, worker.py): tasks handed out now, their results
collected later, in order, from forked processes that start no thread here and run on while
this process reads none of their results; a task's exception is raised where its results are
asked for, as soon as it comes; a worker that dies is replaced and its tasks sent again, and one
that dies LOST_LIMIT times on a task is reported, not waited for; results not given once the
workers have ended, which end with their pool whether or not their results were asked for."""

import math
import os
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from gaqueens.runtime.executors import Workers


def _pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def _fails(value: int) -> int:
    if value == 3:
        raise ValueError(f"no {value}")
    return value


@pytest.mark.parametrize("count", [1, 2, 3])
def test_results_come_in_the_tasks_order_job_by_job(count):
    with Workers(count) as workers:
        powers = workers.later(pow, [(2, k) for k in range(20)])
        roots = workers.later(math.sqrt, [(k * k,) for k in range(7)])
        workers.start()
        assert roots() == [float(k) for k in range(7)]
        assert powers() == [2**k for k in range(20)]


def _alone(code: str) -> subprocess.CompletedProcess:
    """``code`` run by a fresh interpreter of its own: a process of one thread, as a sweep's
    is when it exports (a test process may run others, pytest-xdist's)."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120)


def test_forked_workers_start_no_thread_here():
    done = _alone("""
        import os, threading, time
        from gaqueens.runtime.executors import Workers

        def pid_after(seconds):
            time.sleep(seconds)
            return os.getpid()

        with Workers(2) as workers:
            pids = workers.later(pid_after, [(0.2,), (0.2,), (0.0,), (0.0,)])
            workers.start()
            assert threading.active_count() == 1
            assert all(forked for _, _, forked, _ in workers.pool.workers.values())
            found = set(pids())
        assert os.getpid() not in found and 1 <= len(found) <= 2, found
        print("ok")
    """)
    assert done.stdout == "ok\n", done.stderr


def test_forked_workers_run_on_while_this_process_reads_none_of_their_results(tmp_path):
    """Tasks go round the two workers in turn: each makes a result far larger than a pipe
    holds unread, then writes a marker; nothing is read until both markers are there."""
    marks = [str(tmp_path / "first"), str(tmp_path / "second")]
    done = _alone(f"""
        import time
        from pathlib import Path
        from gaqueens.runtime.executors import Workers

        LARGE, MARKS = 8_000_000, {marks!r}

        def mark(path):
            Path(path).write_text("ran")
            return path

        with Workers(2) as workers:
            made = workers.later(bytes, [(LARGE,), (LARGE,)])
            marked = workers.later(mark, [(path,) for path in MARKS])
            workers.start()
            while not all(Path(path).exists() for path in MARKS):
                time.sleep(0.05)
            print([len(result) for result in made()] == [LARGE] * 2, marked() == MARKS)
    """)
    assert done.stdout.split() == ["True", "True"], done.stderr


def test_workers_end_with_their_pool_whether_or_not_their_results_were_asked_for():
    """An error here right after the start: the workers, which hold all their tasks by then,
    end with the pool's context, not once they are done."""
    done = _alone("""
        import multiprocessing, time
        from gaqueens.runtime.executors import Workers

        def slow(n):
            time.sleep(5)
            return n

        try:
            with Workers(2) as workers:
                workers.later(slow, [(n,) for n in range(6)])
                workers.start()
                raise ValueError("stop")
        except ValueError:
            print(len(multiprocessing.active_children()))
    """)
    assert done.stdout == "0\n", done.stderr


def test_a_worker_whose_result_cannot_be_sent_ends_and_is_reported():
    """A result whose pickling raises SystemExit: neither it nor its text leaves the worker's
    sending thread, which ends the worker rather than leave this process waiting."""
    done = _alone("""
        from gaqueens.runtime.executors import WorkerLost, Workers

        class Unsendable:
            def __reduce__(self):
                raise SystemExit(0)

        def unsendable():
            return Unsendable()

        try:
            with Workers(2) as workers:
                workers.later(unsendable, [()])()
        except WorkerLost as error:
            print(error)
    """)
    assert "task 1 of unsendable died 3 times" in done.stdout, done.stderr


def test_a_forked_worker_that_dies_is_reported():
    done = _alone("""
        import os, signal
        from gaqueens.runtime.executors import WorkerLost, Workers

        def dies(value):
            os.kill(os.getpid(), signal.SIGKILL)

        with Workers(2) as workers:
            dying = workers.later(dies, [(1,), (2,)])
            try:
                dying()
            except WorkerLost as error:
                print(error)
    """)
    assert "of dies died 3 times (the last killed by SIGKILL)" in done.stdout, (
        done.stderr)


def test_with_one_worker_the_tasks_run_here_when_asked_for():
    with Workers(1) as workers:
        pids = workers.later(_pid_after, [(0.0,)])
        workers.start()
        assert pids() == [os.getpid()]


def test_a_tasks_exception_is_raised_where_its_results_are_asked_for():
    with Workers(2) as workers:
        fine = workers.later(_fails, [(1,), (2,)])
        failing = workers.later(_fails, [(2,), (3,), (4,)])
        workers.start()
        assert fine() == [1, 2]
        with pytest.raises(ValueError, match="no 3"):
            failing()


def test_tasks_handed_out_after_the_start_are_refused():
    with Workers(2) as workers:
        workers.start()
        with pytest.raises(RuntimeError, match="before the workers start"):
            workers.later(pow, [(2, 2)])


def test_beside_another_thread_the_tasks_go_to_spawned_processes():
    """Forking beside a running thread would copy its locks: the tasks then go to a pool of
    spawned processes, with the same results."""
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        with Workers(2) as workers:
            powers = workers.later(pow, [(3, k) for k in range(5)])
            workers.start()
            assert not any(forked for _, _, forked, _ in workers.pool.workers.values())
            assert powers() == [3**k for k in range(5)]
    finally:
        stop.set()
        other.join()


def test_a_result_larger_than_a_pipe_comes_whole():
    with Workers(2) as workers:
        large = workers.later(bytes, [(2**20,), (3,)])
        workers.start()
        assert large() == [bytes(2**20), bytes(3)]


def test_a_failure_taken_in_for_another_job_is_raised_by_its_own_job_only():
    with Workers(2) as workers:
        failing = workers.later(_fails, [(3,)])
        fine = workers.later(_fails, [(1,), (2,)])
        workers.start()
        assert fine() == [1, 2]
        with pytest.raises(ValueError, match="no 3"):
            failing()


def test_a_worker_that_dies_once_is_replaced_and_its_task_sent_again(tmp_path):
    """The task kills its worker the first time (a mark left in tmp_path says it did): a new
    worker runs it again, and the results are those of runs that never died."""
    done = _alone(f"""
        import os, signal
        from pathlib import Path
        from gaqueens.runtime.executors import Workers

        mark = Path({str(tmp_path)!r}) / "died"

        def dies_once(value):
            if value == 2 and not mark.exists():
                mark.touch()
                os.kill(os.getpid(), signal.SIGKILL)
            return value * 10

        with Workers(2) as workers:
            print(workers.later(dies_once, [(k,) for k in range(5)])())
    """)
    assert done.stdout == "[0, 10, 20, 30, 40]\n", done.stderr
    assert (tmp_path / "died").exists()


def test_a_failure_is_raised_as_it_comes_not_after_the_jobs_other_tasks(tmp_path):
    """The other tasks wait for a file that the test writes only once the failure is raised:
    raising after every task of the job is in would find them ended."""
    done = _alone(f"""
        import os, time
        from pathlib import Path
        from gaqueens.runtime.executors import Workers

        folder = Path({str(tmp_path)!r})

        def task(k):
            if k == 0:
                raise ValueError("the first fails")
            for _ in range(300):  # at most 30 s for the test's file
                if (folder / "go").exists():
                    break
                time.sleep(0.1)
            (folder / f"ended {{k}}").touch()

        with Workers(2) as workers:
            tasks = workers.later(task, [(k,) for k in range(4)])
            try:
                tasks()
            except ValueError as error:
                print(error, sorted(path.name for path in folder.iterdir()))
            (folder / "go").touch()
    """)
    assert done.stdout == "the first fails []\n", done.stderr


def test_results_asked_for_after_the_workers_ended_are_refused():
    with Workers(2) as workers:
        late = workers.later(pow, [(2, 3)])
        workers.start()
        assert late() == [8]
    with pytest.raises(RuntimeError, match="after the workers ended"):
        late()
