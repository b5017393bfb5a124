from __future__ import annotations

from xdb.ids import new_id, parse_timestep_id, timestep_id, ulid


def test_ulids_are_unique_and_ordered_within_a_process() -> None:
    ids = [ulid() for _ in range(20_000)]
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids)
    assert new_id("tag").startswith("tag-")


def test_timestep_ids_round_trip_with_dashes_in_session() -> None:
    assert timestep_id("session-abc", 1234) == "ts-session-abc-1234"
    assert parse_timestep_id("ts-session-abc-1234") == ("session-abc", 1234)
    for bad in ("session-abc-1", "ts-", "ts-abc", "ts--1", "ts-abc-x"):
        assert parse_timestep_id(bad) is None, bad
