"""Compile a numba kernel once per machine, not once per process.

numba compiles a kernel on its first call in a process and, with `cache=True`, writes the
result beside the source, where later processes load it. Processes that start together
on a fresh install (`snakemake --cores N`, a test run's workers, `--jobs`) would each
compile the same kernel before any of them has written it: the optimal cube search
takes about 100 CPU s to compile, the crossword fill about 60. Under `compile_lock` the
first process compiles and writes the cache while the others wait, then load it.
`compile_ahead` starts such a compile in a forked child while the command builds or loads its
tables (the optimal and two-phase cube searches, the crossword fill).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import multiprocessing
import signal
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import numba

LOCK_FOLDER = Path(tempfile.gettempdir()) / "puzzlesearch-numba-locks"


def lock_path(name: str) -> Path:
    """The lock file of one kernel group (by name: copies of the project share it)."""
    return LOCK_FOLDER / f"{hashlib.sha256(name.encode()).hexdigest()[:16]}.lock"


@contextlib.contextmanager
def compile_lock(name: str) -> Iterator[None]:
    """Hold the machine-wide lock of kernel group `name` while its kernels are compiled or loaded."""
    try:
        LOCK_FOLDER.mkdir(parents=True, exist_ok=True)
        fh = open(lock_path(name), "a+")
    except OSError:  # no lock here (a folder another user owns): compile without waiting
        yield
        return
    with fh:
        fcntl.flock(fh, fcntl.LOCK_EX)  # released when the file closes
        yield


def compile_once(kernel, *args) -> None:
    """Compile (or load from the cache) `kernel` for these arguments' types, under its group's lock.

    Only compiles: nothing runs. A second call with the same types returns at once."""
    signature = tuple(numba.typeof(a) for a in args)
    if signature in kernel.overloads:
        return
    with compile_lock(f"{kernel.py_func.__module__}.{kernel.py_func.__qualname__}"):
        kernel.compile(signature)


_AHEAD: set[str] = set()  # the kernels whose compile_ahead child this process has started


def call_kernel(kernel, *args):
    """kernel(*args), with a Ctrl-C raised inside one of its object-mode calls (a clock) given back as
    KeyboardInterrupt: numba wraps it as a SystemError, which would end the command with a traceback."""
    try:
        return kernel(*args)
    except SystemError as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        raise


def compile_ahead(kernel, compile_stand_in: Callable[[], None]) -> None:
    """Compile `kernel` in a forked child while this process builds or loads what it needs.

    compile_stand_in (run in the child) compiles the kernel through compile_once for stand-in
    arguments of the real ones' types, so the result lands in numba's cache under the kernel's
    lock, where this process's own compile_once finds it (waiting on the lock while the child
    still compiles). Once per process and kernel; nothing to do once it is compiled here or in numba's cache. The
    child leaves Ctrl-C to this process and dies with it (daemon).
    """
    name = f"{kernel.py_func.__module__}.{kernel.py_func.__qualname__}"
    if name in _AHEAD or kernel.overloads or cached(kernel):
        return
    _AHEAD.add(name)
    multiprocessing.get_context("fork").Process(target=_ahead_child, args=(compile_stand_in,), daemon=True).start()


def cached(kernel) -> bool:
    """Whether numba's cache holds `kernel` compiled from its current source (its index names a version; read
    without loading it): this process then loads it in a fraction of a second, and a child that loaded it
    too (compile_ahead) would only double that CPU."""
    cache_file = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
    try:
        return cache_file is not None and bool(cache_file._load_index())  # {} when stale or absent
    except Exception:  # numba's internals (no public call tells this): when they change, compile ahead as before
        return False


def _ahead_child(compile_stand_in: Callable[[], None]) -> None:
    """The forked child of compile_ahead."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    compile_stand_in()
