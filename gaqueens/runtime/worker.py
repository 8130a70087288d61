"""A worker process of the pool (gaqueens.runtime.executors): it runs the tasks whose indices
come down its pipe, or the tasks themselves where it was spawned, and sends up each result, or
the exception a task raised, from a thread of its own: a large result waits there until the
pool's process reads it, which may be busy storing or drawing, while the worker goes on with
its next task.
"""

from __future__ import annotations

import os
import queue
import threading
import traceback

from gaqueens.runtime import signals

OUT_OF_MEMORY = "MemoryError"  # how a worker's reply names a task that ran out of memory


def serve(connection, inherited, tasks, tidy: bool, running) -> None:
    """Runs the tasks that come down ``connection`` until it closes, handing their results to
    ``_send``, and says in ``running`` (a shared integer) which one it runs (-1: none); forked,
    it first closes its copies of the other pipes' ends, so that it sees its own close when the
    pool's process dies."""
    signals.worker(tidy)
    for other in inherited:
        other.close()
    replies = queue.SimpleQueue()
    threading.Thread(target=_send, args=(connection, replies), daemon=True).start()
    while True:
        try:
            index, task = connection.recv()
        except (EOFError, OSError):
            return
        function, args = tasks[index] if task is None else task
        running.value = index
        try:
            replies.put((index, None, function(*args)))
        except MemoryError:
            replies.put((index, OUT_OF_MEMORY, None))  # no room, perhaps, for a traceback
        except Exception as error:
            replies.put((index, traceback.format_exc(), error))
        running.value = -1


def _send(connection, replies) -> None:
    """Sends ``replies`` up ``connection`` as they come, in a thread of their own; failing
    otherwise than on a closed pipe, it ends the worker, whose tasks the pool hands out again
    (a worker whose results could not leave would keep the pool waiting)."""
    try:
        while True:
            reply = replies.get()
            try:
                connection.send(reply)
            except OSError:
                return
            except Exception:  # what it would send does not pickle: its text does
                text = reply[1] or traceback.format_exc()
                connection.send((reply[0], text, RuntimeError(text)))
    except BaseException:
        os._exit(1)
