"""How `dhcpless demo` shows the chain's log: one line per warning, never a traceback, and the
expected optimistic-concurrency conflicts counted instead of printed.

In the demo every function runs in the same process, so their warnings reach the user's
terminal. A patch that finds its object changed since it was read (the adapter's
PreconditionFailed, "changed since read") is the normal price of several writers working on the
same host; the next event or resync tick retries it. Printing each one made a healthy run look
failed, so they are counted and reported in one line at the end. Other warnings stay visible,
as one line each; tracebacks (injected faults in `--chaos`) are reduced to the exception's line.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

EXPECTED_CONFLICT = "(changed since read)"
"""What `kube.errors` appends to a precondition failure: a conflict the chain retries."""


def _one_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


class DemoLog(logging.Handler):
    """Writes each warning as one line to the current stderr (which a live display may wrap)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.conflicts = 0

    def emit(self, record: logging.LogRecord) -> None:
        text = _one_line(record.getMessage())
        if EXPECTED_CONFLICT in text:
            self.conflicts += 1
            return
        error = record.exc_info[1] if record.exc_info else None
        cause = f" ({type(error).__name__}: {_one_line(str(error))})" if error else ""
        sys.stderr.write(f"{record.levelname.lower()}: {record.name}: {text}{cause}\n")


def _thread_error(args: threading.ExceptHookArgs) -> None:
    name = args.thread.name if args.thread else "thread"
    sys.stderr.write(f"error: {name}: {args.exc_type.__name__}: {_one_line(str(args.exc_value))}\n")


@contextmanager
def demo_logs() -> Iterator[DemoLog]:
    """Install the one-line log for the demo's duration; report the conflicts at the end."""
    root, handler, hook = logging.getLogger(), DemoLog(), threading.excepthook
    root.addHandler(handler)
    threading.excepthook = _thread_error
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        threading.excepthook = hook
        if handler.conflicts:
            sys.stderr.write(
                f"{handler.conflicts} expected conflicts (an object changed since it was read) "
                "were retried\n"
            )
