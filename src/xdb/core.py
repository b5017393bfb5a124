"""The Database handle: runs operations for a caller, and is the one place outputs leave.

Every interface (Python, MCP, HTTP, CLI) goes through ``Database.run``: it authorizes the
caller, admits the request and releases the response through ``xdb.policy``, so no skin
can bypass the policy.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from xdb.api import Operations
from xdb.concepts.requests import resolve_request
from xdb.errors import (
    InvalidRequest,
    NotFound,
    PermissionDenied,
    XdbError,
    from_validation_errors,
    not_unicode,
)
from xdb.fidelity.fidelity_operations import FidelityState
from xdb.gcpause import collector_paused
from xdb.ids import new_id
from xdb.index.candidates import choose as choose_candidates
from xdb.index.embedding import Indexer
from xdb.index.embedding import embed_wait as embed_wait_setting
from xdb.models.common import Caller
from xdb.ops.catalog import REGISTRY, operations
from xdb.ops.registry import Context, Operation
from xdb.paths import chosen_root, root_of
from xdb.policy.access_rules import readable as access_readable
from xdb.policy.audit_calls import call_entry
from xdb.policy.authorize import authorize
from xdb.policy.export import exported
from xdb.policy.load import named_caller
from xdb.policy.release import Release
from xdb.store.audit import PendingCall
from xdb.store.protocol import Store
from xdb.timeutil import now_us

if TYPE_CHECKING:
    from pathlib import Path

    from xdb.embed.embedder import Embedder


class Database(Operations):
    """A handle on one experience database. Thread-safe; use one per process and file.

    Every operation is a method with typed keyword arguments (``db.record(event_type=
    "input", content="hi")``), inherited from ``xdb.api.Operations``, which is generated
    from the registry (``python -m xdb.interfaces.api_gen``)."""

    def __init__(
        self,
        store: Store,
        *,
        session_id: str | None = None,
        caller: Caller | None = None,
        quota_bytes: int | None = None,
        embedder: str | Embedder | None = None,
        embed_wait: float | None = None,
        audit: bool = True,
        data_root: str | os.PathLike[str] | None = None,
    ) -> None:
        """``embed_wait``: how many seconds ``close`` waits for the episodes this handle
        added to get vectors (None: ``XDB_EMBED_WAIT``, else 30; ``inf``: no bound).
        ``audit``: keep the audit log (every timestep as recorded, every call); only a
        benchmark's baseline turns it off. ``data_root``: where operations' files go
        (``xdb.paths``; None: ``XDB_DATA_ROOT``, else the user data directory's).
        Opening starts the embedding worker, which resumes any backlog in the background."""
        operations()  # make sure every operation is registered
        try:
            self.embed_wait = embed_wait_setting(embed_wait)
        except InvalidRequest:
            store.close()  # the handle owns the store from here
            raise
        self.store = store
        self.caller = caller or Caller()
        self._session_id = session_id
        self._proposed_session = new_id("session")
        self._session_lock = threading.Lock()
        self._settings: dict[str, Any] = {
            "quota_bytes": quota_bytes,
            "audit": audit,
            "data_root": chosen_root(data_root, None),
            "fidelity": FidelityState(),
        }
        self.indexer = Indexer(store, partial(_embedder, embedder), partial(_model_id, embedder))
        # The default caller's context, made once: every call needs one (hot for record).
        self._context = Context(
            store,
            self.caller,
            lambda: self.session_id,
            self._settings,
            self.indexer,
            self._recording_session,
            # The one place the store's capabilities are asked: which candidate lists a
            # search reads, and how (index/candidates.py).
            choose_candidates(store, self.indexer),
        )
        self.embedding_left: int | None = None  # set by close()
        # Last: a backlog any process left is embedded while this handle is open.
        self.indexer.start()

    @property
    def data_root(self) -> Path:
        """The only folder a call's paths may lead to, but the terminal's (``xdb.paths``)."""
        return root_of(self._settings)

    @data_root.setter
    def data_root(self, root: str | os.PathLike[str]) -> None:
        self._settings["data_root"] = chosen_root(root, None)

    # ------------------------------------------------------------------ sessions

    @property
    def session_id(self) -> str:
        """The current session: the one given to connect(), else the most recently active
        one in the database that no agent's hook made (``store.session_origin``), else a
        new one (made by the first record).

        Once the database has a session the handle keeps it. Before then this is a proposed
        id, kept only if this handle's record is the first: processes that start on an
        empty database at once all record into the one session the first of them made
        (``Store.claim_session``), rather than each into its own."""
        if self._session_id is None:
            with self._session_lock:
                if self._session_id is None:
                    found = self.store.latest_session()  # (unbound: every session)
                    if found is None:
                        return self._proposed_session
                    self._session_id = found
        return self._session_id

    def _recording_session(self) -> str:
        """The current session for a record: claimed in the store when there is none yet."""
        if self._session_id is None:
            with self._session_lock:
                if self._session_id is None:
                    self._session_id = self.store.claim_session(self._proposed_session, now_us())
        return self._session_id

    def start_session(self, session_id: str | None = None) -> str:
        """Make a new (or the named) session current for later calls without a session_id."""
        with self._session_lock:
            self._session_id = session_id or new_id("session")
        return self._session_id

    # ------------------------------------------------------------------ running operations

    def call(
        self,
        name: str,
        payload: Mapping[str, Any] | BaseModel | None = None,
        *,
        caller: Caller | None = None,
    ) -> BaseModel:
        """Run the operation ``name`` with a request mapping or model; return its response."""
        # "record" means xdb.record; other groups' operations are named in full.
        op = REGISTRY.get(name) or REGISTRY.get(f"xdb.{name}")
        if op is None:
            raise NotFound(f"unknown operation {name!r}; known: {', '.join(sorted(REGISTRY))}")
        return self.run(op, payload, caller=caller)

    def run(
        self,
        op: Operation[Any, Any],
        payload: Mapping[str, Any] | BaseModel | None,
        *,
        caller: Caller | None = None,
    ) -> BaseModel:
        if op.bulk:  # (see ``Operation.bulk``)
            with collector_paused():
                return self._call(op, payload, caller or self.caller)
        return self._call(op, payload, caller or self.caller)

    def _call(
        self, op: Operation[Any, Any], payload: Mapping[str, Any] | BaseModel | None, who: Caller
    ) -> BaseModel:
        try:
            authorize(who, op)  # before validation: a caller who may not run it learns nothing
        except PermissionDenied as exc:
            self._audit_call(who, op, payload, None, exc)
            raise
        # A write's call record goes in its first write's transaction (the store appends it:
        # no write commits without it); one that wrote nothing is appended afterwards.
        writes = self._settings["audit"] and not op.readonly and not op.self_audited
        call = (
            PendingCall(call_entry(who, op, payload, None, None, before=True)) if writes else None
        )
        failed: Exception | None = None
        try:
            response = self._run(who, op, payload, call)
        except Exception as exc:  # failed calls are audited too, whatever failed
            failed = exc
        written = call is not None and call.taken
        if failed is not None:
            self._audit_call(who, op, payload, None, failed)
            raise failed
        if not op.self_audited and not written:
            self._audit_call(who, op, payload, response, None)
        return response

    def _audit_call(
        self,
        who: Caller,
        op: Operation[Any, Any],
        payload: Any,
        response: BaseModel | None,
        error: Exception | None,
    ) -> None:
        if self._settings["audit"]:
            self.store.audit_append([call_entry(who, op, payload, response, error)])

    def _run(
        self,
        who: Caller,
        op: Operation[Any, Any],
        payload: Mapping[str, Any] | BaseModel | None,
        call: PendingCall | None,
    ) -> BaseModel:
        if isinstance(payload, op.request):
            request = payload
        else:
            if isinstance(payload, BaseModel):
                payload = payload.model_dump(exclude_unset=True)
            try:
                request = op.request.model_validate(payload or {})
            except ValidationError as exc:
                raise from_validation_errors(exc.errors()) from None
        base = self._context
        # A context per call: what the caller may see is read once per call, on first use.
        ctx = Context(
            self.store,
            who,
            base.current_session,
            self._settings,
            self.indexer,
            self._recording_session,
            base.chosen_candidates,
            audit_op=f"{op.group}.{op.name}" if self._settings["audit"] else None,
        )
        # The handler gets the store bound to this call (``store.binding``): its reads as
        # the caller may read (access policies; the store's views), its first write
        # carrying the call's audit record. The log's own writes read nothing back a caller
        # could not see: they skip the policy read.
        readable = None if op.self_audited else access_readable(ctx.policy_objects, who)
        if readable is not None or call is not None:
            ctx.store = self.store.for_call(readable, call)
        return self._handle(ctx, op, request)

    def _handle(self, ctx: Context, op: Operation[Any, Any], request: BaseModel) -> BaseModel:
        release = Release(ctx) if op.readonly else None
        if release is not None:
            request = release.admit(request)
        try:
            # Every concept the request names, as the one resolver means it (a short name
            # the full id of its pack concept; an unknown name a read asks about refused).
            request = resolve_request(ctx, request, lookup=op.readonly)
            response = op.handler(ctx, request)
        except UnicodeEncodeError:
            # Text that is not Unicode inside a free-form value (metadata, details) passes
            # validation; the store refuses to encode it, inside its transaction.
            raise not_unicode(request.model_dump()) from None
        except XdbError as exc:
            if release is not None and release.stand_ins:
                raise release.echo_error(exc) from None
            raise
        return response if release is None else release.release(response)

    def as_caller(self, caller: Caller | str) -> CallerHandle:
        """A handle that runs every operation for ``caller``: a ``Caller``, or the id of a
        caller defined with ``policy.set_caller`` (``"self"``: the agent)."""
        who = caller if isinstance(caller, Caller) else named_caller(self.store, caller)
        return CallerHandle(self, who)

    # ------------------------------------------------------------------ bulk transfer

    def export_records(
        self, *, sharing: bool = False, vectors: bool = False
    ) -> Iterator[dict[str, Any]]:
        """Every stored object this handle's caller may read, as a JSON-ready dict (the JSONL
        export format). ``sharing``: also leave out objects whose access policy does not
        allow export (what may leave this database). An export that leaves anything out
        carries neither the policy objects nor which object carries which policy; one
        by a caller who sees fewer concepts leaves each record through the API's release
        (``policy/export.py``). The file holder's whole export is a backup: no release.
        ``vectors``: episode records carry their stored vectors (by model id, base64 of
        little-endian float32), so an import need not embed them again; only the whole
        export may (InvalidRequest otherwise: a vector is derived from content that a
        restricted export may redact)."""
        return exported(self.store, self.caller, sharing, vectors)

    def import_records(self, records: Iterable[dict[str, Any]]) -> dict[str, int]:
        """Restore exported records in one transaction; returns counts per kind. Episodes
        that came without a vector from the current model are embedded by the worker in
        the background, and ``wait_for_embeddings`` (or ``close``, within ``embed_wait``)
        waits for them; those that carried one (``export_records(vectors=True)``) are not
        embedded again. A vector of the current model must be as long as its embedder
        makes them (``records.VectorDimensions``): another configuration of the same model
        id (an OpenAI model at another ``XDB_EMBED_DIM``) is refused, and the import with it."""
        indexer = self.indexer

        def made(model: str) -> int | None:  # asked once per model the vectors name
            return indexer.embedder.dimension if model == indexer.model_id else None

        counts = self.store.import_records(records, made)
        if counts.get("episode"):
            self.indexer.notify()  # imported episodes may lack the current model's vector
        return counts

    # ------------------------------------------------------------------ lifecycle

    def wait_for_embeddings(
        self, timeout: float | None = None, progress: Callable[[int], None] | None = None
    ) -> bool:
        """Block until every episode has a vector from the current model; False on timeout
        or when the embedder failed (``db.indexer.failure`` says why; the next add, search
        or wait retries). ``progress`` is called with the number of episodes each batch
        embedded (a progress bar's ``update``)."""
        return self.indexer.wait(timeout, progress)

    def close(self, timeout: float | None = None) -> int:
        """Close the handle; return how many episodes are left without a vector.

        If this handle added episodes, first wait until every episode has a vector, for at
        most ``timeout`` seconds (None: ``embed_wait``). A handle that added none does not
        wait for a backlog others left: the worker stops after the batch in flight. What
        is left is logged (a warning when this handle added episodes), kept in
        ``embedding_left``, and embedded by the next process that opens the database, or
        by ``xdb reindex``."""
        wait = self.embed_wait if timeout is None else embed_wait_setting(timeout)
        try:
            # Compactions recording started, finished first: they write episodes to embed.
            self._settings["fidelity"].watch.close()
            left = self.indexer.close(wait)
        finally:
            self.store.close()
        self.embedding_left = left
        return left

    def __enter__(self) -> Database:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        # Ctrl-C means "stop now": the episodes are stored; the next process embeds them.
        self.close(0 if kind is not None and issubclass(kind, KeyboardInterrupt) else None)


def connect(
    target: str | os.PathLike[str] | None = None,
    *,
    session_id: str | None = None,
    caller: Caller | None = None,
    quota_bytes: int | None = None,
    embedder: str | Embedder | None = None,
    create: bool = True,
    embed_wait: float | None = None,
    audit: bool = True,
    data_root: str | os.PathLike[str] | None = None,
) -> Database:
    """Open (creating if needed) an experience database.

    ``target`` is a file path, ``":memory:"``, or a ``postgresql://`` URL;
    None means ``XDB_DB`` or the default file in the user's data directory. ``embedder`` is
    an ``Embedder`` or a spec (``minilm``, ``openai``, ``hash``); None means ``XDB_EMBEDDER``,
    else ``minilm``. The model loads when episodes are first embedded or searched.

    A missing file is made when ``create`` is true (its directory must exist, except the
    default file's); with ``create=False`` it must exist. Either mistake raises
    ``InvalidRequest`` naming the path, and nothing is made.

    ``embed_wait``: how long ``close()`` waits for the episodes this handle added to get
    vectors, in seconds; None means ``XDB_EMBED_WAIT``, else 30 (see ``Database``).

    ``data_root``: the only folder operations' paths may lead to (but the terminal's);
    None means ``XDB_DATA_ROOT``, else ``<stem>-files`` beside the file (docs/policy.md).
    """
    from xdb.config import default_db, prepare_location

    location = os.fspath(target) if target is not None else default_db()
    wait = embed_wait_setting(embed_wait)  # a bad value is refused before anything opens
    prepare_location(location, create=create)
    store: Store
    if location.startswith(("postgresql://", "postgres://")):
        from xdb.store.postgres import PostgresStore  # psycopg: only for this store

        store = PostgresStore(location)
    else:
        from xdb.store.sqlite import SQLiteStore

        store = SQLiteStore(location)
    return Database(
        store,
        session_id=session_id,
        caller=caller,
        quota_bytes=quota_bytes,
        embedder=embedder,
        embed_wait=wait,
        audit=audit,
        data_root=chosen_root(data_root, location),
    )


def _model_id(spec: str | Embedder | None) -> str:
    """The model's id without making the embedder (``xdb.embed.model_id``: no numpy)."""
    if spec is None or isinstance(spec, str):
        from xdb.embed import model_id

        return model_id(spec)
    return spec.model_id


def _embedder(spec: str | Embedder | None) -> Embedder:
    if spec is None or isinstance(spec, str):
        from xdb.embed import get_embedder

        return get_embedder(spec)
    return spec


class CallerHandle(Operations):
    """``db.as_caller(...)``: every operation method of ``Database``, run for one caller."""

    def __init__(self, db: Database, caller: Caller) -> None:
        self.db = db
        self.caller = caller

    def call(self, name: str, payload: Mapping[str, Any] | BaseModel | None = None) -> BaseModel:
        return self.db.call(name, payload, caller=self.caller)

    def run(
        self,
        op: Operation[Any, Any],
        payload: Mapping[str, Any] | BaseModel | None,
        *,
        caller: Caller | None = None,
    ) -> BaseModel:
        return self.db.run(op, payload, caller=caller or self.caller)
