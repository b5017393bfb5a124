"""Bulk work with Python's cyclic garbage collector paused.

An import or a text index catching up holds tens of thousands of parsed records, rows and
documents until their batch is written: they outlive the collector's young generations,
and every few thousand of them made it walk the whole process's heap (a caller's records
included). At 20,000 episodes, seven such full collections took 0.85 s of a 3.3 s import;
reading 100,000 text index documents, 0.5 s of 1.1 s. What that work leaves behind holds
no reference cycles worth collecting early, and reference counting frees the rest as usual.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

_collector_lock = threading.Lock()
_collector_holders = 0  # blocks running with the collector paused
_collector_was_enabled = False
_collected_at = 0.0  # when the collector last ran (or the pause began)
# Blocks of several threads that overlap (clients streaming tokens at once, a text index
# catching up beside an import) may keep the pause on for good: a block that ends after this
# long without a collection runs one.
MAX_PAUSE_SECONDS = 5.0
# Of the young generations, and of all of them only as often as the collector itself would
# (every ``threshold[2]``-th collection of generation 1): a full collection walks the caller's
# whole heap as well, ~0.4 s with a million records held, the GIL held, every few seconds of
# a long import; but what survives a young collection is promoted, and its garbage is then
# old (a session's objects alive at one of these collections): a full one frees that.


def _pause_generation() -> int:
    return 2 if gc.get_count()[2] >= gc.get_threshold()[2] else 1


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the block with the cyclic collector paused (see the module), then restore it.
    Nested or concurrent blocks share one pause: the collector comes back, if it was on,
    when the last of them ends."""
    global _collector_holders, _collector_was_enabled, _collected_at
    with _collector_lock:
        if _collector_holders == 0:
            _collector_was_enabled = gc.isenabled()
            _collected_at = time.monotonic()
            gc.disable()
        _collector_holders += 1
    try:
        yield
    finally:
        collect = False
        with _collector_lock:
            _collector_holders -= 1
            if _collector_holders == 0:
                if _collector_was_enabled:
                    gc.enable()
            elif _collector_was_enabled and time.monotonic() - _collected_at > MAX_PAUSE_SECONDS:
                _collected_at = time.monotonic()
                collect = True
        if collect:
            gc.collect(_pause_generation())
