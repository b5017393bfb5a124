"""The rooms' functions every ``Context`` calls (``registry.RoomServices``), handed in by the
assembly: ``Context`` is the kernel's, which may not import ``xdb.policy`` or ``xdb.index``.

Each is imported on its first use, as ``Context`` imported it before, so that ``import
xdb.ops`` (which every capability module runs) loads no more than it did. From then on it
is the instance's attribute (``cached_property``): a call reaches the function with one
lookup, no wrapper call.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdb.index.candidates import Candidates
    from xdb.index.embedding import Indexer
    from xdb.models.common import Caller
    from xdb.ops.registry import AccessAction, PolicyObjects
    from xdb.policy.disclosure import Visibility
    from xdb.store.protocol import Store


class LazyRoomServices:
    """``registry.RoomServices`` from ``policy.load``, ``policy.access_rules`` and
    ``index.candidates``, each imported when first asked for."""

    @cached_property
    def stored_policies(self) -> Callable[[Store], PolicyObjects]:
        from xdb.policy.load import stored

        return stored

    @cached_property
    def visibility(self) -> Callable[[Store, Caller, PolicyObjects], Visibility]:
        from xdb.policy.load import visibility

        return visibility

    @cached_property
    def require_access(
        self,
    ) -> Callable[[PolicyObjects, Caller, str | None, AccessAction, str, str], None]:
        from xdb.policy.access_rules import require

        return require

    @cached_property
    def choose_candidates(self) -> Callable[[Store, Indexer | None], Candidates]:
        from xdb.index.candidates import choose

        return choose
