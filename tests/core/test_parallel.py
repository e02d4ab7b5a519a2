"""forked_map: fn over items in forked workers, results in input order, stoppable."""

from __future__ import annotations

import os
import time

import pytest

from puzzlesearch.parallel import forked_map


def _slow_square(x: int) -> tuple[int, int]:
    """x squared and the worker's pid, later items faster (so they finish first)."""
    time.sleep(0.02 * (6 - x % 6))
    return x * x, os.getpid()


@pytest.mark.parametrize("jobs", [1, 3])
def test_results_come_in_input_order(jobs):
    out = list(forked_map(_slow_square, list(range(12)), jobs))
    assert [square for square, _ in out] == [x * x for x in range(12)]
    pids = {pid for _, pid in out}
    assert (pids == {os.getpid()}) if jobs == 1 else (os.getpid() not in pids and 1 < len(pids) <= 3)


@pytest.mark.parametrize("jobs", [1, 2])
def test_stopped_ends_the_run_with_a_prefix(jobs):
    got = []
    for square, _ in forked_map(_slow_square, list(range(40)), jobs, stopped=lambda: len(got) >= 5):
        got.append(square)
    assert got == [x * x for x in range(len(got))] and 5 <= len(got) < 40


def test_the_callers_state_reaches_the_workers_without_pickling():
    table = {"kept": lambda x: x + 1}  # a lambda in a dict: not picklable, read through the fork
    assert list(forked_map(lambda x: table["kept"](x), [1, 2, 3], 2)) == [2, 3, 4]
