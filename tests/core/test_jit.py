"""puzzlesearch.jit: a kernel is compiled for the arguments' types without running, once, under a lock."""

from __future__ import annotations

import fcntl
import subprocess
import sys
import textwrap

import numpy as np
from numba import njit

from puzzlesearch.jit import compile_lock, compile_once, lock_path


def test_compile_once_compiles_the_call_signature_without_running_it():
    @njit
    def add(a, b):
        return a + b

    x = np.arange(3, dtype=np.int64)
    compile_once(add, x, 2)
    assert len(add.overloads) == 1
    compile_once(add, x, 5)  # same types: nothing more
    assert add(x, 2).tolist() == [2, 3, 4]
    assert len(add.overloads) == 1  # the call used the compiled one
    compile_once(add, x.astype(np.float64), 2.0)
    assert len(add.overloads) == 2


def test_the_lock_is_held_across_processes_until_the_block_ends():
    name = "tests.test_jit.lock"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
                import sys
                from puzzlesearch.jit import compile_lock
                with compile_lock({name!r}):
                    print("held", flush=True)
                    sys.stdin.readline()
            """),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with open(lock_path(name), "a+") as fh:  # another process cannot take it now
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
                taken = True
            except BlockingIOError:
                taken = False
        assert not taken
    finally:
        holder.communicate("\n", timeout=30)
    assert holder.returncode == 0
    with compile_lock(name):  # free again once the holder's block ended
        pass
