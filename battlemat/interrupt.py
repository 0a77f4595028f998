"""Stopping a command from outside: Ctrl+C (SIGINT) and SIGTERM take one path.

Python raises KeyboardInterrupt in the main thread on SIGINT; `sigterm_raises` makes SIGTERM raise
`Terminated`, which is a KeyboardInterrupt. So a stop asked by a terminal and one asked by a
supervisor (systemd, a batch scheduler, `kill`) unwind alike: every `finally` on the way out runs (a
batch ends its workers and reports the runs it has, the window closes), and `battlemat.cli.main`
turns what reaches it into one line and an exit status. Without the handler SIGTERM would kill the
process where it stands, and no `finally` would run.

The exit status is 128 + the signal's number, the shells' own convention for "stopped by signal N":
130 after SIGINT, 143 after SIGTERM. A supervisor that sent SIGTERM reads 143 as "stopped as asked";
answering 130 would tell it that someone pressed Ctrl+C.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: raised in the main thread as KeyboardInterrupt is for SIGINT."""

    signum = signal.SIGTERM


def signal_of(stop: BaseException) -> int:
    """The signal that asked for `stop`: its `signum` if it carries one, else SIGINT (Ctrl+C)."""
    return int(getattr(stop, "signum", signal.SIGINT))


def exit_status(stop: BaseException) -> int:
    """128 + the signal's number: 130 for Ctrl+C, 143 for SIGTERM (the module's docstring says why)."""
    return 128 + signal_of(stop)


def stopped(stop: BaseException) -> int:
    """What a command's entry point does with a stop that reached it: one line on stderr, no traceback,
    and the exit status."""
    signum = signal_of(stop)
    how = "" if signum == signal.SIGINT else f" by {signal.Signals(signum).name}"
    print(f"battlemat: interrupted{how}", file=sys.stderr)
    return exit_status(stop)


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated()


@contextmanager
def sigterm_raises() -> Iterator[None]:
    """While inside, SIGTERM raises Terminated in the main thread; the previous handler comes back
    afterwards (the tests and tools/golden.py call `battlemat.cli.main` in their own process). Only
    the main thread may set handlers, so elsewhere this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)
