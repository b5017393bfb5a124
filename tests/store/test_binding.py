"""The store bound to a call (``store.binding``): what the call reads and the audit record
its first write carries go with the store it is given, not with ambient state; everything
that reads for a call reads through that store."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import xdb
from xdb.embed.hashing import HashEmbedder
from xdb.store import audit
from xdb.store.access import Readable
from xdb.store.audit import AuditEntry, PendingCall
from xdb.store.sqlite.store import SQLiteStore
from xdb.store.types import NewTimestep

ADMIN = xdb.Caller(id="ops", roles=("self", "admin"))
PARTNER = xdb.Caller(id="acme-bot", roles=("partner",), treaty_ids=("t-acme",))


class HeldEmbedder(HashEmbedder):
    """Embeds nothing in the background worker until ``go`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.go = threading.Event()

    def embed(self, texts: Sequence[str]) -> np.ndarray[Any, Any]:
        if threading.current_thread().name == "xdb-embedder":
            self.go.wait(60)
        return super().embed(texts)


def test_a_search_not_ready_counts_only_what_the_caller_reads(tmp_path: Path) -> None:
    embedder = HeldEmbedder()
    db = xdb.connect(tmp_path / "x.sqlite3", embedder=embedder, session_id="s1", embed_wait=0)
    try:
        admin = db.as_caller(ADMIN)
        admin.set_access_policy(id="private", read_roles=["self"], write_roles=["self"])
        admin.set_disclosure_policy(id="everything", allow_all=True)
        admin.set_treaty(id="t-acme", partner="acme", disclosure_policy_id="everything")
        db.add_episode(content="a walk along the river", session_id="s1")
        for i in range(7):
            db.add_episode(
                content=f"secret river meeting {i}", session_id="s1", access_policy_id="private"
            )
        said = {}
        for who, handle in (("partner", db.as_caller(PARTNER)), ("admin", admin)):
            with pytest.raises(xdb.NotReady) as refused:
                handle.search_episodes(text_query="river", wait_for_embeddings_s=0.2)
            said[who] = str(refused.value)
        assert "(1 episodes without a vector in all)" in said["partner"]
        assert "(8 episodes without a vector in all)" in said["admin"]
    finally:
        embedder.go.set()
        db.close(30)


def test_a_binding_reads_as_its_call_and_changes_the_store_it_came_from(
    tmp_path: Path,
) -> None:
    store = SQLiteStore(tmp_path / "x.sqlite3")
    try:
        nothing = Readable(frozenset(), default=False)
        bound = store.for_call(nothing, None)
        assert bound.reading == nothing and store.reading is None
        assert bound.unbound is store and bound.unrestricted().unbound is store
        assert bound.unrestricted().reading is None
        assert bound.reading_as(nothing) is bound
        bound.close()  # closing through a binding closes the store
        assert store.closed
    finally:
        store.close()


def test_only_the_binding_carries_the_calls_record(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "x.sqlite3")
    try:
        pending = PendingCall(AuditEntry(1, "call", "c", "xdb.create_tag", {"allowed": True}))
        store.put_policy_object("contract", "db", {"k": 1}, 1, "c")  # the store: no record
        assert [r.kind for r in store.audit_read(0, 10)] == []
        store.for_call(None, pending).put_policy_object("contract", "db", {"k": 2}, 2, "c")
        assert pending.taken
        assert [(r.kind, r.operation) for r in store.audit_read(0, 10)] == [
            ("call", "xdb.create_tag")
        ]
    finally:
        store.close()


def _step(content: str) -> NewTimestep:
    return NewTimestep("s", 1, "output", "assistant", content, None, None, False, False, {})


def test_recording_through_a_binding_and_the_store_in_turns_continues_one_log(
    tmp_path: Path,
) -> None:
    store = SQLiteStore(tmp_path / "x.sqlite3")
    try:
        early = store.for_call(None, None)
        by = ("self", "xdb.record")
        made = [(early if i % 2 else store).record([_step(f"t{i}")], None, by)[0] for i in range(6)]
        assert [tick for _, tick in made] == [1, 2, 3, 4, 5, 6]
        assert store.deferred_audit  # (set through the binding too: their state is one)
        steps = store.audit_read(0, 10)
        assert [json.loads(r.body)["content"] for r in steps] == [f"t{i}" for i in range(6)]
    finally:
        store.close()


@pytest.mark.parametrize("key", [None, "k"])
def test_a_record_carrying_its_calls_record_comes_first_and_the_log_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str | None
) -> None:
    if key is not None:
        monkeypatch.setenv(audit.KEY_ENV, key)
    store = SQLiteStore(tmp_path / "x.sqlite3")
    try:
        by = ("self", "xdb.record")
        entry = AuditEntry(1, "call", "self", "xdb.engine.check", {"allowed": True})
        store.for_call(None, PendingCall(entry)).record([_step("first")], None, by)
        store.record([_step("a")], None, by)
        store.record([_step("b"), _step("c")], None, by)  # (a batch chains off the head)
        store.record([_step("d")], None, by)
        kinds = [(r.kind, r.operation) for r in store.audit_read(0, 10)]
        assert kinds == [
            ("timestep", "xdb.record"),
            ("call", "xdb.engine.check"),
            ("timestep", "xdb.record"),
            ("timesteps", "xdb.record"),
            ("timestep", "xdb.record"),
        ]
        assert store.audit_verify().first_bad is None
    finally:
        store.close()
