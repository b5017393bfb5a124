"""What the store methods shared by both stores stand on: each runs a function of the
storage modules (``store.concepts``, ``store.graph_edges``, ``store.access``...) on a reader
or in one write transaction of its store, with the store's ``Flavor``; the store says how
(``SQLiteStore``, ``PostgresStore``). A method is bound to a call by ``CallBinding``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from xdb.store.binding import CallBinding
from xdb.store.sqlbuild import Flavor

T = TypeVar("T")


class SharedMethods(CallBinding):
    _flavor: Flavor

    def _on_reader(self, fn: Callable[[Any], T]) -> T:
        raise NotImplementedError

    def _in_transaction(self, fn: Callable[[Any], T]) -> T:
        raise NotImplementedError

    def settle_audit(self) -> None:
        """Chain audit records a store keeps waiting (SQLite's ``audit_pending``) before
        the log is read."""
