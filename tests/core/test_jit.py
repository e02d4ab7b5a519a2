"""puzzlesearch.jit: a kernel is compiled for the arguments' types without running, once, under a lock; a
Ctrl-C inside a kernel comes back as KeyboardInterrupt."""

from __future__ import annotations

import fcntl
import signal
import subprocess
import sys
import textwrap
import time

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


SPIN = """
import signal, sys, time
from numba import njit, objmode
from puzzlesearch.jit import call_kernel

@njit
def clock():
    with objmode(t="float64"):  # as the search kernels' clock
        t = time.perf_counter()
    return t

@njit
def spin(seconds):
    t0, n = clock(), 0
    while clock() - t0 < seconds:
        n += 1
    return n

spin(0.01)
def handler(signum, frame):  # as cube/solve.py's second Ctrl-C
    raise KeyboardInterrupt
signal.signal(signal.SIGINT, handler)
for how in ("plain", "call_kernel"):
    print("ready", flush=True)
    try:
        call_kernel(spin, 60.0) if how == "call_kernel" else spin(60.0)
        print(how, "finished", flush=True)
    except KeyboardInterrupt:
        print(how, "KeyboardInterrupt", flush=True)
    except SystemError as exc:
        print(how, "SystemError from", type(exc.__cause__).__name__, flush=True)
"""


def test_a_ctrl_c_inside_a_kernel_comes_back_as_keyboard_interrupt(tmp_path):
    """A Ctrl-C whose handler runs in a kernel's object-mode clock reaches the caller as numba's SystemError
    (a traceback, exit 1); through call_kernel it is KeyboardInterrupt (the CLI's "interrupted", exit 130)."""
    script = tmp_path / "spin.py"
    script.write_text(SPIN)
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    seen = []
    try:
        for _ in range(2):
            assert proc.stdout.readline().strip() == "ready"
            time.sleep(0.5)  # inside the loop
            proc.send_signal(signal.SIGINT)
            seen.append(proc.stdout.readline().strip())
    finally:
        proc.kill()
        proc.wait()
    assert seen == ["plain SystemError from KeyboardInterrupt", "call_kernel KeyboardInterrupt"]
