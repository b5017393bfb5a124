"""The operation registry.

An ``Operation`` names a capability once: its request and response models, whether it only
reads, a one-line summary, the handler, and every fact a skin needs (its CLI argument and
example, its MCP hints, its HTTP aliases). Interfaces are generated from it alone. The
operations are listed explicitly in ``xdb.ops.catalog``, which also holds them by name
(``REGISTRY``); nothing registers by being imported.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel

from xdb.models.common import Caller

if TYPE_CHECKING:
    from xdb.index.candidates import Candidates
    from xdb.index.embedding import Indexer
    from xdb.policy.disclosure import Visibility
    from xdb.store.protocol import Store

ReqT = TypeVar("ReqT", bound=BaseModel)
RespT = TypeVar("RespT", bound=BaseModel)

# The policy objects by kind and id (``policy.load.stored``'s answer).
PolicyObjects = dict[str, dict[str, Any]]
AccessAction = Literal["read", "write", "delete"]


class RoomServices(Protocol):
    """The rooms' functions ``Context`` calls: the policy's (``xdb.policy``) and the search's
    lists (``xdb.index``). The kernel may import neither, so the assembly hands them in
    (``xdb.ops.room_services``)."""

    @property
    def stored_policies(self) -> Callable[[Store], PolicyObjects]:
        """``policy.load.stored``: every policy object, validated."""
        ...

    @property
    def visibility(self) -> Callable[[Store, Caller, PolicyObjects], Visibility]:
        """``policy.load.visibility``: what a caller may see."""
        ...

    @property
    def require_access(
        self,
    ) -> Callable[[PolicyObjects, Caller, str | None, AccessAction, str, str], None]:
        """``policy.access_rules.require``: refuse an action the caller's roles do not allow."""
        ...

    @property
    def choose_candidates(self) -> Callable[[Store, Indexer | None], Candidates]:
        """``index.candidates.choose``: the search's strategy for a store."""
        ...


@dataclass
class Context:
    """What a handler may use: the store, who is calling, and the current session."""

    store: Store
    caller: Caller
    current_session: Callable[[], str]
    # The rooms' functions the reads and checks below call. Set on the class by the
    # assembly (``xdb/ops/__init__.py``, which runs before any module can import this one),
    # so every context has them, a handler's, a bench's or a test's; a class attribute, not
    # a field, so that making a context per call costs what it did.
    rooms: ClassVar[RoomServices]
    settings: Mapping[str, Any] = field(default_factory=dict)
    indexer: Indexer | None = None  # embeds episodes and holds the vector index
    # The current session for a write that records timesteps: like ``current_session``, but
    # on a database with no session yet it makes one, once for every process (see
    # ``Database.session_id``). None: ``current_session``.
    recording_session: Callable[[], str] | None = None
    # Where a search's ranked lists come from (``index/candidates.py``): chosen once per
    # handle by ``Database``; None: chosen on first use from the store and the indexer.
    chosen_candidates: Candidates | None = None

    # What the caller may see (``policy.load.visibility``): read on first use, per call.
    _view: Visibility | None = None
    # The operation being run, for the audit log's records of what it writes (None: the
    # database keeps no audit log).
    audit_op: str | None = None

    @property
    def audit_by(self) -> tuple[str, str] | None:
        """(caller, operation) for the audit log's copy of a write, or None."""
        return None if self.audit_op is None else (self.caller.id, self.audit_op)

    # The policy objects (``policy.load.stored``): read on first use, once per call.
    _objects: dict[str, dict[str, Any]] | None = None

    @property
    def policy_objects(self) -> dict[str, dict[str, Any]]:
        if self._objects is None:
            self._objects = self.rooms.stored_policies(self.store)
        return self._objects

    @property
    def view(self) -> Visibility:
        if self._view is None:
            self._view = self.rooms.visibility(self.store, self.caller, self.policy_objects)
        return self._view

    def require_access(
        self,
        policy_id: str | None,
        action: AccessAction,
        what: str,
        field: str = "access_policy_id",
    ) -> None:
        """Refuse ``action`` on objects under ``policy_id`` (None: the default) unless this
        caller may (``policy/access_rules.py``)."""
        self.rooms.require_access(self.policy_objects, self.caller, policy_id, action, what, field)

    @property
    def sees(self) -> Callable[[str], bool] | None:
        """Which concepts the caller may see, or None when it sees every one (what concept
        resolution passes on: a hidden concept is as if no pack held it)."""
        return self.view.visible if self.view.restricted else None

    @property
    def candidates(self) -> Candidates:
        """The search's lists, reading through this call's store."""
        if self.chosen_candidates is None:
            self.chosen_candidates = self.rooms.choose_candidates(self.store.unbound, self.indexer)
        return self.chosen_candidates.on(self.store)

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
    # Extra POST routes with path parameters (e.g. "/v1/xdb/bud-ready/{session_id}/{bud_tag_id}"):
    # the path's parameters join the JSON body's fields.
    http_post: tuple[str, ...] = ()
    query_aliases: Mapping[str, str] = field(default_factory=dict)
    # The CLI command's name: None derives it from the name, "" leaves the operation off
    # the CLI (the memcp toolset, whose names would clash with experience's).
    cli_name: str | None = None
    # memcp's contract names its tools bare (add_episode), without the group prefix.
    bare_tool_name: bool = False
    # The Database method's name, when the operation's own would clash with another group's
    # (xdb.graph_neighborhood is Database.concept_neighborhood).
    method: str | None = None
    # The request field the CLI command also takes as its one positional argument.
    positional: str | None = None
    # Command lines showing the operation, for the CLI's help and the reference: one a
    # line; those before the last get the real ids it names (``NAME=$(xdb ... | python3
    # -c ...)``), never a placeholder.
    example: str | None = None
    # A write that, repeated with the same request, changes nothing more (MCP's hint).
    idempotent: bool = False
    # A write that removes or overwrites what was stored (MCP's hint).
    destructive: bool = False
    # The roles that may run it; None: readers all, writers self and admin (policy.authorize).
    roles: tuple[str, ...] | None = None
    # Whether the agent's MCP toolset offers it (management operations are not offered).
    agent_tool: bool = True
    # A batch of many items in one call (a token stream's timesteps): the HTTP skin takes a
    # body as large as one MCP message, and the call runs with Python's cyclic collector
    # paused (``xdb.gcpause``): a batch's thousand validated models otherwise set off
    # collections that walk the caller's whole heap (20k tokens in batches of 1000 here:
    # 120-190 ms of 0.7-1.0 s, two full collections of 75-100 ms among them).
    bulk: bool = False
    # Writes whose every timestep is its own audit record, in the write's transaction (the
    # store appends it): no separate call record, and no policy read before them (the log's
    # own writes read nothing back a caller could not see).
    self_audited: bool = False

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
    def method_name(self) -> str:
        """The ``Database`` method that runs it."""
        return self.method or self.name

    @property
    def description(self) -> str:
        return (self.request.__doc__ or self.summary).strip()
