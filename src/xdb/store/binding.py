"""A store bound to one call (issue 35): what the call's reads may see and the audit record
its first write carries, passed with the store rather than held in ambient state.

``Database.run`` binds the store once per call (``for_call(readable, pending)``) and gives
the handler that binding as ``ctx.store``. The binding's reads run as ``readable`` allows
(``store.access``: a restricted caller's views; None: every row) and its first write
appends ``pending``, the call's audit record, in that write's own transaction
(``audit.carried``). ``unrestricted`` is the same call reading every row: a write's own
lookups, or a count an admin's check must see whole.

A binding is a shallow copy of the store: the same connections, writer and caches; what a
method changes on the store lives in objects the copies share (``SQLiteStore``'s state
holder, PostgreSQL's pools and caches), so a binding changes the store it came from. The
store a ``Database`` holds is unbound: it reads every row and carries no call's record,
which is what its background workers (the embedder, the text index) want.
"""

from __future__ import annotations

from typing import Any, Self

from xdb.store.access import Readable
from xdb.store.audit import PendingCall


class CallBinding:
    """Mixed into each store: ``for_call`` and what it binds."""

    _readable: Readable | None = None
    _pending: PendingCall | None = None
    _origin: Any = None  # the unbound store a binding came from

    def for_call(self, readable: Readable | None, pending: PendingCall | None) -> Self:
        """This store, bound to a call that reads as ``readable`` and whose first write
        appends ``pending``."""
        bound = object.__new__(type(self))
        bound.__dict__.update(self.__dict__)
        bound._readable = readable
        bound._pending = pending
        bound._origin = self.unbound
        bound._bound()
        return bound

    def unrestricted(self) -> Self:
        """The same call, reading every row (its record still carried by its first write)."""
        return self.reading_as(None)

    def reading_as(self, readable: Readable | None) -> Self:
        """The same call, reading as ``readable`` allows."""
        return self if readable == self._readable else self.for_call(readable, self._pending)

    @property
    def unbound(self) -> Self:
        """The store the database holds, whichever call this is bound to: what a cache of
        the store's own (its concepts, say) is kept per."""
        origin: Self = self._origin if self._origin is not None else self
        return origin

    @property
    def reading(self) -> Readable | None:
        """What this binding's reads may see (None: every row)."""
        return self._readable

    def _bound(self) -> None:
        """A store whose connections take the binding themselves rebinds them here."""
