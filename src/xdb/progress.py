"""How far a long operation got, for whoever shows it (the command line's bars on a terminal).

A handler that knows its progress calls ``report(done, total)``; it costs nothing unless a
skin runs the operation inside ``reporting(listener)``. The listener lives in a context
variable, so the concurrent calls of a server never hear each other's progress.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# (done so far, the total when known) -> None
Listener = Callable[[int, "int | None"], None]

_LISTENER: ContextVar[Listener | None] = ContextVar("xdb_progress", default=None)


def report(done: int, total: int | None = None) -> None:
    """Tell the listener, if any, that ``done`` of ``total`` (None: unknown) are done."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(done, total)


@contextmanager
def reporting(listener: Listener) -> Iterator[None]:
    """Send what the operations run inside this block report to ``listener``."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)
