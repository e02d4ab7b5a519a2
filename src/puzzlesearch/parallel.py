"""Ordered work in forked processes: results in input order, Ctrl-C left to the parent.

The workers are forked from the caller, so they share what it has loaded (tables, compiled
kernels, a scorer) without pickling it; only item indices go out and results come back.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import Any

POLL_SECONDS = 0.2  # how often a parallel run checks `stopped` while it waits for a result

_FORKED: tuple = ()  # (fn, items): what the forked workers read


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def cap_jobs(jobs: int, tag: str, flag: str = "--jobs") -> int:
    """`jobs` processes, at most one per core (a note line when fewer than asked)."""
    most = cores()
    if jobs <= most:
        return jobs
    from puzzlesearch.progress import log

    log(tag, f"note: {flag} {jobs}: this machine gives {most} cores, so {most} processes")
    return most


def _call(i: int) -> Any:
    """A worker's fn(items[i]) (the state inherited from the parent at fork)."""
    fn, items = _FORKED
    return fn(items[i])


def _ignore_ctrl_c() -> None:
    """Workers leave Ctrl-C to the parent (it stops them)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def forked_map(
    fn: Callable[[Any], Any], items: Sequence, jobs: int, stopped: Callable[[], bool] = lambda: False
) -> Iterator[Any]:
    """fn(item) for each item in order, over `jobs` forked workers (in this process when jobs <= 1).

    Ends early once `stopped()` is true; closing the generator (a break, Ctrl-C in the parent)
    terminates the workers, so work in flight is dropped, never half-kept.
    """
    if jobs <= 1 or len(items) <= 1:
        for item in items:
            if stopped():
                return
            yield fn(item)
        return
    global _FORKED
    _FORKED = (fn, items)
    pool = multiprocessing.get_context("fork").Pool(min(jobs, len(items)), initializer=_ignore_ctrl_c)
    try:
        it = pool.imap(_call, range(len(items)), chunksize=1)
        for _ in items:
            while True:
                if stopped():
                    return
                try:
                    result = it.next(timeout=POLL_SECONDS)
                    break
                except multiprocessing.TimeoutError:
                    continue
            yield result
    finally:
        pool.terminate()
        pool.join()
        _FORKED = ()
