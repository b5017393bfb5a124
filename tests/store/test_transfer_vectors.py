"""Episode vectors in the export format (``xdb.store.records``), on both stores: an export
that asks for them carries them, an import stores them with the episodes it inserts (in
batches), keeps a skipped episode's own, and refuses bad or mismatched ones whole."""

from __future__ import annotations

import base64
import struct
from collections.abc import Callable
from typing import Any

import pytest

from tests.store._data import episode
from xdb.errors import InvalidRequest
from xdb.store.postgres import transfer as pg_transfer
from xdb.store.protocol import Store
from xdb.store.records import episode_record
from xdb.store.sqlite import transfer as sqlite_transfer

MakeStore = Callable[[str], Store]
MODEL = "test:4"


def blob(*values: float) -> bytes:
    return struct.pack(f"<{len(values)}f", *values)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def filled(store: Store) -> dict[int, bytes]:
    """Three episodes with vectors of MODEL (the third also of "other:2"); one without."""
    given = {}
    for n in (1, 2, 3, 4):
        seq = store.add_episode(episode(n, f"Episode {n}. About things numbered {n}."))
        if n < 4:
            given[seq] = blob(n, 0.5, -1.25, 1e-7 * n)
    store.store_vectors(MODEL, list(given.items()))
    store.store_vectors("other:2", [(3, blob(0.0, 1.0))])
    return given


def vectors(store: Store, model: str = MODEL) -> dict[str, bytes]:
    """The stored vectors of ``model`` by episode id."""
    rows = list(store.load_vectors(model))
    ids = store.episodes_by_seqs([r[1] for r in rows])
    return {ids[r[1]].episode.id: r[2] for r in rows}


def episode_records(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r["kind"] == "episode"]


def test_vectors_travel_with_the_export_into_either_store(
    store: Store, make_store: MakeStore
) -> None:
    filled(store)
    plain = list(store.export_records())
    assert not any("vectors" in r for r in plain)  # only when asked
    exported = list(store.export_records(vectors=True))
    eps = episode_records(exported)
    assert [sorted(r.get("vectors", {})) for r in eps] == [[MODEL], [MODEL], ["other:2", MODEL], []]
    assert base64.b64decode(eps[0]["vectors"][MODEL]) == blob(1, 0.5, -1.25, 1e-7)
    # Besides the vectors, the export is the plain one.
    assert [{k: v for k, v in r.items() if k != "vectors"} for r in exported] == plain
    for backend in ("sqlite", "postgres"):
        other = make_store(backend)
        assert other.import_records(exported)["episode"] == 4
        assert vectors(other) == vectors(store)  # the same bytes, under the target's seqs
        assert vectors(other, "other:2") == vectors(store, "other:2")
        # Only the episode that came without a vector waits for the model.
        assert [summary for _, summary, _ in other.missing_vectors(MODEL, 10)] == ["Episode 4"]
        assert other.vector_counts(MODEL) == (4, 3)
        assert list(other.export_records(vectors=True)) == exported


def test_a_restricted_export_carries_no_vectors_even_when_asked(store: Store) -> None:
    filled(store)
    records = list(store.export_records(restricted=True, vectors=True))
    assert episode_records(records) and not any("vectors" in r for r in records)


def test_a_skipped_episode_keeps_its_own_vectors(store: Store, make_store: MakeStore) -> None:
    filled(store)
    exported = list(store.export_records(vectors=True))
    for backend in ("sqlite", "postgres"):
        other = make_store(backend)
        # The target already holds episode 1 with a vector of its own.
        seq = other.add_episode(episode(1, "Episode 1. Held before the import."))
        mine = blob(9, 9, 9, 9)
        other.store_vectors(MODEL, [(seq, mine)])
        counts = other.import_records(exported)
        assert counts["episode"] == 3 and counts["skipped"] >= 1
        got = vectors(other)
        assert got["episode-001"] == mine
        assert {k: v for k, v in got.items() if k != "episode-001"} == {
            k: v for k, v in vectors(store).items() if k != "episode-001"
        }


def test_an_import_stores_vectors_batch_by_batch(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_transfer, "BATCH", 2)
    monkeypatch.setattr(pg_transfer, "BATCH", 2)
    records = [
        {**episode_record(episode(n, f"Episode {n}.")), "vectors": {MODEL: b64(blob(n, 1, 2, 3))}}
        for n in range(1, 8)
    ]
    assert store.import_records(records)["episode"] == 7
    assert vectors(store) == {f"episode-{n:03d}": blob(n, 1, 2, 3) for n in range(1, 8)}
    assert store.missing_vectors(MODEL, 10) == []


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("not base64!", "not base64"),
        ("", "empty"),
        (b64(b"abcdef"), "6 bytes is not a whole number of float32 values"),
        (b64(blob(1.0, float("nan"))), "NaN or infinity"),
        (7, "expected a base64 string"),
    ],
)
def test_bad_vectors_are_refused_naming_the_field(store: Store, value: Any, says: str) -> None:
    records = [
        {**episode_record(episode(1, "Episode 1.")), "vectors": {MODEL: b64(blob(1, 2, 3, 4))}},
        {**episode_record(episode(2, "Episode 2.")), "vectors": {MODEL: value}},
    ]
    with pytest.raises(InvalidRequest) as caught:
        store.import_records(records)
    assert f"record 2 (episode): vectors.{MODEL}: " in caught.value.message
    assert says in caught.value.message
    assert store.vector_counts(MODEL) == (0, 0)


@pytest.mark.parametrize("stored_first", [True, False])
def test_a_dimension_mismatch_rolls_back_the_whole_import(
    store: Store, monkeypatch: pytest.MonkeyPatch, stored_first: bool
) -> None:
    """Against the model's stored vectors, or the import's own earlier ones; the refused
    record comes after whole batches were written, and none of them stays."""
    monkeypatch.setattr(sqlite_transfer, "BATCH", 2)
    monkeypatch.setattr(pg_transfer, "BATCH", 2)
    if stored_first:
        seq = store.add_episode(episode(90, "Held before."))
        store.store_vectors(MODEL, [(seq, blob(1, 2, 3, 4))])
    before = list(store.export_records(vectors=True))
    session = {
        "kind": "session",
        "session_id": "conv",
        "next_tick": 1,
        "created_at": "2024-01-01T00:00:00Z",
        "last_at": "2024-01-01T00:00:00Z",
    }
    records = [session] + [
        {**episode_record(episode(n, f"Episode {n}.")), "vectors": {MODEL: b64(blob(n, 1, 2, 3))}}
        for n in range(1, 6)
    ]
    records.append(
        {**episode_record(episode(6, "Episode 6.")), "vectors": {MODEL: b64(blob(1, 2, 3))}}
    )
    with pytest.raises(InvalidRequest) as caught:
        store.import_records(records)
    message = caught.value.message
    assert message.startswith(f"record 7 (episode): vectors.{MODEL}: 3 dimensions, but"), message
    assert "have 4" in message and caught.value.field == "vectors"
    assert list(store.export_records(vectors=True)) == before
