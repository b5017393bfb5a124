"""The operation registry.

An ``Operation`` names a capability once: its request and response models, whether it only
reads, a one-line summary, and the handler. Interfaces are generated from this table, so adding
an operation means writing its models and handler and registering it here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel

from xdb.models.common import Caller

if TYPE_CHECKING:
    from xdb.index.embedding import Indexer
    from xdb.store.protocol import Store

ReqT = TypeVar("ReqT", bound=BaseModel)
RespT = TypeVar("RespT", bound=BaseModel)


@dataclass
class Context:
    """What a handler may use: the store, who is calling, and the current session."""

    store: Store
    caller: Caller
    current_session: Callable[[], str]
    settings: Mapping[str, Any] = field(default_factory=dict)
    indexer: Indexer | None = None  # embeds episodes and holds the vector index
    # The current session for a write that records timesteps: like ``current_session``, but
    # on a database with no session yet it makes one, once for every process (see
    # ``Database.session_id``). None: ``current_session``.
    recording_session: Callable[[], str] | None = None

    def session(self, requested: str | None) -> str:
        return requested if requested is not None else self.current_session()

    def session_to_record(self, requested: str | None) -> str:
        if requested is not None:
            return requested
        return (self.recording_session or self.current_session)()


@dataclass(frozen=True)
class Operation(Generic[ReqT, RespT]):
    name: str
    group: str
    request: type[ReqT]
    response: type[RespT]
    handler: Callable[[Context, ReqT], RespT]
    readonly: bool
    summary: str
    # Extra GET routes from the HTTP XAPI reference, e.g. "/v1/xdb/recent/{session_id}",
    # and the short query-parameter names it uses (e.g. type -> tag_type).
    http_get: tuple[str, ...] = ()
    query_aliases: Mapping[str, str] = field(default_factory=dict)
    # The CLI command's name: None derives it from the name, "" leaves the operation off
    # the CLI (the memcp toolset, whose names would clash with experience's).
    cli_name: str | None = None
    # memcp's contract names its tools bare (add_episode), without the group prefix.
    bare_tool_name: bool = False
    # The Database method's name, when the operation's own would clash with another group's
    # (xdb.graph_neighborhood is Database.concept_neighborhood).
    method: str | None = None

    @property
    def http_path(self) -> str:
        return f"/v1/{self.group}/{self.name.replace('_', '-')}"

    def tool_name(self, dotted: bool = False) -> str:
        if self.bare_tool_name:
            return self.name
        return f"{self.group}.{self.name}" if dotted else f"{self.group}_{self.name}"

    @property
    def command(self) -> str:
        """The CLI command's name ("" when the operation has none)."""
        return self.name.replace("_", "-") if self.cli_name is None else self.cli_name

    @property
    def description(self) -> str:
        return (self.request.__doc__ or self.summary).strip()


REGISTRY: dict[str, Operation[Any, Any]] = {}


def register(op: Operation[ReqT, RespT]) -> Operation[ReqT, RespT]:
    # Keyed by group and name: memcp's add_episode and experience's add_episode are two.
    key = f"{op.group}.{op.name}"
    if key in REGISTRY:
        raise ValueError(f"operation {key!r} registered twice")
    REGISTRY[key] = op
    return op


# The order groups are listed in (tools, routes, commands, docs); within a group, the order
# operations were registered in. Imports between capability modules cannot reorder it.
GROUP_ORDER = ("xdb", "experience", "memcp")


# The capability modules, in the order their operations are listed.
MODULES = ("log", "recall", "concepts", "search", "episodes", "graph", "usage", "memcp")


def operations(groups: set[str] | None = None) -> list[Operation[Any, Any]]:
    """Registered operations, optionally limited to some groups."""
    _load()
    chosen = [op for op in REGISTRY.values() if groups is None or op.group in groups]
    rank = {g: i for i, g in enumerate(GROUP_ORDER)}
    # By group, then by module in MODULES' order (a module imported early, by a test or by
    # another module, registers early: the listing must not depend on that), then as listed.
    where = {f"xdb.ops.{m}": i for i, m in enumerate(MODULES)}
    return sorted(
        chosen,
        key=lambda op: (rank.get(op.group, len(rank)), where.get(op.handler.__module__, 99)),
    )


def _load() -> None:
    # Importing the capability modules registers their operations.
    # In this order, which is the order tools, routes and commands are listed in.
    for module in MODULES:
        importlib.import_module(f"xdb.ops.{module}")
