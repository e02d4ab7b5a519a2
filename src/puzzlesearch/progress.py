"""Progress lines for long work: one logger, plain lines on stderr."""

from __future__ import annotations

import logging
import sys
import time

LOG = logging.getLogger("puzzlesearch")


class _StderrHandler(logging.StreamHandler):
    """A stream handler writing to whatever sys.stderr is at each line (not the one at setup)."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value) -> None:
        pass


def setup_logging(verbose: bool = False) -> None:
    """Send puzzlesearch log lines to stderr as 'HH:MM:SS stage: message'."""
    if LOG.handlers:
        return
    handler = _StderrHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
    LOG.addHandler(handler)
    LOG.setLevel(logging.DEBUG if verbose else logging.INFO)
    LOG.propagate = False


def log(stage: str, message: str) -> None:
    """Log one progress line for a pipeline stage."""
    LOG.info("%s: %s", stage, message)


class Timer:
    """Context manager measuring wall seconds: `with Timer() as t: ...; t.seconds`."""

    def __enter__(self) -> Timer:
        self.start = time.perf_counter()
        self.seconds = 0.0
        return self

    def __exit__(self, *exc) -> None:
        self.seconds = time.perf_counter() - self.start
