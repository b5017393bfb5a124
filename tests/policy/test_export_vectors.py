"""Vectors leave only in the file holder's whole export: a caller that access policies keep
from some objects, or one exporting for sharing, is refused them (asking), and its export
carries none (not asking); on both stores."""

from __future__ import annotations

import pytest

import xdb
from xdb.errors import InvalidRequest

ADMIN = xdb.Caller(id="ops", roles=("self", "admin"))
GUEST = xdb.Caller(id="guest", roles=("guest",))


def test_a_restricted_export_carries_no_vectors(target: str) -> None:
    with xdb.connect(target, embedder="hash") as db:
        db.as_caller(ADMIN).set_access_policy(id="private", read_roles=["self"], allow_export=False)
        db.add_episode(content="an open walk in the park")
        db.add_episode(content="a private walk by the sea", access_policy_id="private")
        assert db.wait_for_embeddings(timeout=60)
        whole = [r for r in db.export_records(vectors=True) if r["kind"] == "episode"]
        assert len(whole) == 2 and all("vectors" in r for r in whole)
        with pytest.raises(InvalidRequest) as caught:
            db.export_records(sharing=True, vectors=True)
        assert caught.value.field == "vectors" and "leaves objects out" in caught.value.message
    with xdb.connect(target, embedder="hash", caller=GUEST) as guest:
        with pytest.raises(InvalidRequest) as caught:
            guest.export_records(vectors=True)
        assert caught.value.message.startswith(
            "vectors: only the file holder's whole export carries vectors"
        )
        records = list(guest.export_records())
    episodes = [r for r in records if r["kind"] == "episode"]
    assert [r["content"] for r in episodes] == ["an open walk in the park"]
    assert not any("vectors" in r for r in records)
