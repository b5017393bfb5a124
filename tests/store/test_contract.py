"""The store contract, part one: the experience log, tags, comments, export and import.

Every test runs on SQLite and on PostgreSQL (the ``store`` fixture) and asserts the same
expected values on both, so the two stores agree wherever the protocol fixes an answer.
``test_*_match_across_stores`` run one scenario on both stores and compare everything.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.store._data import T0, comment, ids, record_log, step, tag
from xdb.errors import InvalidRequest, NotFound, StoreError
from xdb.log.log_models import Timestep
from xdb.models.common import TagType, TargetType
from xdb.store.protocol import Store
from xdb.store.types import NewEpisode, ResolvedTarget, TimestepFilter

MakeStore = Callable[[str], Store]


def _all(store: Store, flt: TimestepFilter, page: int = 2) -> tuple[list[str], list[int]]:
    """Every match, fetched ``page`` at a time through the keyset; (ids, totals seen)."""
    out: list[str] = []
    totals: list[int] = []
    after = None
    while True:
        found, total, after = store.query(flt, after, page)
        out += ids(found)
        totals.append(total)
        if after is None:
            return out, totals


# --------------------------------------------------------------------------- recording


def test_record_numbers_each_session_from_one_without_gaps(store: Store) -> None:
    made = store.record([step("a", T0, "x"), step("b", T0, "y"), step("a", T0 + 1, "z")])
    assert made == [("ts-a-1", 1), ("ts-b-1", 1), ("ts-a-2", 2)]
    assert store.record([step("a", T0 + 2, "w")]) == [("ts-a-3", 3)]
    assert store.record([]) == []
    summary = store.session_summary("a")
    assert summary is not None
    assert (summary.timesteps, summary.current_tick) == (3, 3)
    assert summary.first_time is not None and summary.last_time is not None
    assert (summary.first_time.timestamp(), summary.last_time.timestamp()) == (
        T0 / 1e6,
        (T0 + 2) / 1e6,
    )
    assert store.session_summary("nope") is None


def test_latest_session_and_sessions_list_by_last_activity(store: Store) -> None:
    assert store.latest_session() is None
    assert store.sessions(10) == (0, [])
    # b and a are created by one batch at the same time: the later-created one is "latest".
    store.record([step("b", T0, "x"), step("a", T0, "y")])
    assert store.latest_session() == "a"
    store.record([step("c", T0 - 5, "old")])
    store.record([step("b", T0 + 9, "new")])
    assert store.latest_session() == "b"
    total, listed = store.sessions(2)
    assert total == 3
    assert [s.session_id for s in listed] == ["b", "a"]
    assert [s.session_id for s in store.sessions(10)[1]] == ["b", "a", "c"]


def test_record_stores_every_field(store: Store) -> None:
    store.record(
        [
            step("s", T0, "call", event_type="tool_call", role="assistant", event="e", start=True),
            step("s", T0 + 1, "5", event_type="output", token=-3, acts={"c/ü": 0.25, "c/a": 1.0}),
        ]
    )
    first, second = store.recent("s", 10)
    assert (
        first.model_dump()
        == Timestep(
            id="ts-s-1",
            session_id="s",
            tick=1,
            timestamp=first.timestamp,
            event_type="tool_call",
            role="assistant",
            content="call",
            event_id="e",
            event_start=True,
        ).model_dump()
    )
    assert first.timestamp.timestamp() == T0 / 1e6
    assert (second.token_id, second.event_id, second.event_start, second.event_end) == (
        -3,
        None,
        False,
        False,
    )
    assert list(second.concept_activations.items()) == [("c/ü", 0.25), ("c/a", 1.0)]
    assert second.fidelity.value == "hot"


def test_recent_returns_the_last_n_oldest_first(store: Store) -> None:
    store.record([step("s", T0 + i, f"m{i}") for i in range(5)])
    assert [t.tick for t in store.recent("s", 3)] == [3, 4, 5]
    assert store.recent("missing", 3) == []


def test_close_event_writes_the_episode_in_the_same_transaction(store: Store) -> None:
    seen: list[list[tuple[int, str]]] = []

    def close(steps: Any) -> NewEpisode:
        seen.append([(s.tick, s.content) for s in steps])
        from tests.store._data import episode

        return episode(len(seen), " ".join(s.content for s in steps), session="s")

    store.record([step("s", T0, "before", event="e", start=True)])
    made = store.record(
        [step("s", T0 + 1, "middle", event="e"), step("s", T0 + 2, "end", event="e", end=True)],
        close_event=close,
    )
    assert made == [("ts-s-2", 2), ("ts-s-3", 3)]
    assert seen == [[(1, "before"), (2, "middle"), (3, "end")]]
    stored = store.episodes_by_ids(["episode-001"])["episode-001"]
    assert stored.episode.content == "before middle end"

    def fail(steps: Any) -> NewEpisode:
        raise InvalidRequest("no episode for you")

    with pytest.raises(InvalidRequest):
        store.record([step("s", T0 + 3, "x", event="f", end=True)], close_event=fail)
    with pytest.raises(InvalidRequest):
        store.record([step("new", T0 + 3, "x", event="f", end=True)], close_event=fail)
    # Nothing of the failed batches was kept: no timestep, no tick used, no session made.
    assert [t.tick for t in store.recent("s", 10)] == [1, 2, 3]
    assert store.record([step("s", T0 + 4, "y")]) == [("ts-s-4", 4)]
    assert store.session_summary("new") is None
    assert store.episode_max_seq() == 1


def test_close_event_without_an_event_end_is_not_called(store: Store) -> None:
    def never(steps: Any) -> NewEpisode:
        raise AssertionError("called")

    store.record([step("s", T0, "x", event="e")], close_event=never)
    store.record([step("s", T0, "x", end=True)], close_event=never)  # no event id
    assert store.episode_max_seq() == 0


# --------------------------------------------------------------------------- tags, comments


def test_tags_create_find_and_list(store: Store) -> None:
    record_log(store)
    again, created = store.create_tag(tag("weather", TagType.CONCEPT, 9, concept_id="other"))
    assert not created and again.id == "tag-weather-concept" and again.concept_id == "weather"
    same_name, created = store.create_tag(tag("weather", TagType.CUSTOM, 10))
    assert created and same_name.id == "tag-weather-custom"
    assert [t.tag_type.value for t in store.find_tags("weather")] == ["concept", "custom"]
    assert [t.id for t in store.find_tags("weather", "custom")] == ["tag-weather-custom"]
    assert store.find_tags("nothing") == []
    got = store.get_tag("tag-idea-bud")
    assert got is not None
    assert (got.bud_status and got.bud_status.value, got.related_concepts) == ("collecting", ["x"])
    assert store.get_tag("tag-missing") is None
    listed = store.list_tags(None, None)
    assert [(t.name, t.application_count) for t in listed] == [
        ("weather", 1),
        ("alice", 1),
        ("idea", 0),
        ("noted", 1),
        ("weather", 0),
    ]
    assert [t.name for t in store.list_tags("entity", None)] == ["alice"]
    assert [t.name for t in store.list_tags(None, "collecting")] == ["idea"]
    assert store.list_tags("bud", "ready") == []


def test_apply_tag_counts_what_it_covers_and_checks_the_target(store: Store) -> None:
    record_log(store)
    weather = store.get_tag("tag-weather-concept")
    assert weather is not None

    def apply(app_id: str, target: ResolvedTarget, new: Any = None) -> tuple[Any, bool, int]:
        from tests.store._data import application

        return store.apply_tag(application(app_id, weather.id, target), target, new)

    assert apply("x1", ResolvedTarget("range", "s2", range_start=1, range_end=100))[2] == 7
    assert apply("x2", ResolvedTarget("range", "s2", range_start=50, range_end=60))[2] == 0
    assert apply("x3", ResolvedTarget("event", "s1", event_id="e1"))[2] == 3
    fresh, created, count = apply("x4", ResolvedTarget("timestep", "s1", tick=4), tag("fresh"))
    assert (fresh.id, created, count) == ("tag-fresh-custom", True, 1)
    errors = [
        (ResolvedTarget("timestep", "s1", tick=99), "timestep_id"),
        (ResolvedTarget("timestep", "zz", tick=1), "timestep_id"),
        (ResolvedTarget("event", "s1", event_id="nope"), "event_id"),
        (ResolvedTarget("event", "zz", event_id="e1"), "session_id"),
        (ResolvedTarget("range", "zz", range_start=1, range_end=2), "session_id"),
    ]
    for n, (target, field) in enumerate(errors):
        with pytest.raises(NotFound) as info:
            apply(f"bad{n}", target, tag(f"never{n}"))
        assert info.value.field == field
        assert store.find_tags(f"never{n}") == []  # the new tag went with the failed write
    from tests.store._data import application

    target = ResolvedTarget("timestep", "s1", tick=1)
    with pytest.raises(NotFound) as info:
        store.apply_tag(application("bad", "tag-nope", target), target, None)
    assert info.value.field == "tag_name_or_id"
    assert store.list_tags("concept", None)[0].application_count == 4


def test_apply_tag_is_created_where_the_target_did_not_carry_the_tag(store: Store) -> None:
    """``created``: the tag's first application to that very target, not whether the call
    made the tag (issue 34: a tag made by create_tag answered created false when applied)."""
    from tests.store._data import application

    record_log(store)
    alice = "tag-alice-entity"  # record_log applied it to s1's tick 1

    def created(app_id: str, target: ResolvedTarget) -> bool:
        return store.apply_tag(application(app_id, alice, target), target, None)[1]

    tick1 = ResolvedTarget("timestep", "s1", tick=1)
    tick2 = ResolvedTarget("timestep", "s1", tick=2)
    event = ResolvedTarget("event", "s1", event_id="e1")
    span = ResolvedTarget("range", "s2", range_start=2, range_end=4)
    assert not created("y1", tick1)
    assert created("y2", tick2) and not created("y3", tick2)
    assert created("y4", event) and not created("y5", event)
    assert created("y6", span) and not created("y7", span)
    assert created("y8", ResolvedTarget("range", "s2", range_start=2, range_end=5))  # another
    assert created("y9", ResolvedTarget("timestep", "s2", tick=1))  # tick 1 of another session
    # Applied again, it is still applied (and counted) each time.
    assert store.list_tags("entity", None)[0].application_count == 10
    # A tag the call makes is new wherever it goes.
    made = store.apply_tag(application("y10", "tag-new-custom", tick1), tick1, tag("new"))
    assert (made[0].id, made[1]) == ("tag-new-custom", True)


def test_comments_need_an_existing_target(store: Store) -> None:
    record_log(store)
    with pytest.raises(NotFound) as info:
        store.add_comment(comment("c9", "zz", TargetType.SESSION, "?"), None)
    assert info.value.field == "session_id"
    with pytest.raises(NotFound):
        store.add_comment(
            comment("c8", "s1", TargetType.TIMESTEP, "?"), ResolvedTarget("timestep", "s1", tick=9)
        )
    store.add_comment(
        comment("c7", "s2", TargetType.RANGE, "ok"),
        ResolvedTarget("range", "s2", range_start=1, range_end=3),
    )
    assert store.stats()["comments"] == 3


def test_stats_count_everything(store: Store) -> None:
    record_log(store)
    stats = store.stats()
    assert stats["tags_by_type"] == {"concept": 1, "entity": 1, "bud": 1, "custom": 1}
    assert stats["timesteps_by_fidelity"] == {"hot": 11}
    assert (stats["comments"], stats["tag_applications"]) == (2, 3)
    assert stats["bytes"] > 0


# --------------------------------------------------------------------------- query


@pytest.mark.parametrize(
    ("flt", "expected"),
    [
        (TimestepFilter(), ["ts-s1-1", "ts-s1-2", "ts-s2-1", "ts-s1-3", "ts-s1-4"]),
        (TimestepFilter(session_ids=["s2"], tick_start=2, tick_end=3), ["ts-s2-2", "ts-s2-3"]),
        (TimestepFilter(session_ids=["s1", "zz"], tick_start=4), ["ts-s1-4"]),
        (TimestepFilter(session_ids=[]), []),
        (TimestepFilter(time_start_us=T0 + 15, time_end_us=T0 + 20), ["ts-s2-1", "ts-s1-3"]),
        (TimestepFilter(event_types=["input", "system"]), ["ts-s1-1", "ts-s2-1"]),
        (TimestepFilter(tag_ids=["tag-weather-concept"]), ["ts-s1-2", "ts-s1-3", "ts-s1-4"]),
        (TimestepFilter(tag_ids=["tag-alice-entity"]), ["ts-s1-1"]),
        (TimestepFilter(tag_ids=["tag-noted-custom"]), ["ts-s2-2", "ts-s2-3", "ts-s2-4"]),
        (TimestepFilter(tag_ids=["tag-noted-custom", "tag-weather-concept"]), []),
        (TimestepFilter(activations={"c/rain": (0.5, 1.0)}), ["ts-s1-3"]),
        (TimestepFilter(activations={"c/t": (0.2, 0.3)}), ["ts-s2-4", "ts-s2-5"]),
        (TimestepFilter(activations={"c/t": (0.0, 0.5), "c/rain": (0, 1)}), []),
        (TimestepFilter(text="rain"), ["ts-s1-2", "ts-s1-3"]),
        (TimestepFilter(text="RAIN friday"), ["ts-s1-3"]),
        (TimestepFilter(text="rain friday monday"), []),
        (TimestepFilter(text="cafe"), ["ts-s1-1"]),  # accents fold
        (TimestepFilter(text="café OWNER"), ["ts-s1-1"]),
        (TimestepFilter(text="report"), ["ts-s1-2"]),  # weather_report: two words
        (TimestepFilter(text="weather_report"), ["ts-s1-2"]),
        (TimestepFilter(text="report_weather"), []),  # a phrase: in order
        (TimestepFilter(text="rai"), []),  # words, not prefixes
        (TimestepFilter(text="?! ..."), []),  # no words
        (TimestepFilter(text="tok3"), ["ts-s2-5"]),
        (
            TimestepFilter(session_ids=["s2"], event_types=["output"], descending=True),
            ["ts-s2-7", "ts-s2-6", "ts-s2-5", "ts-s2-4", "ts-s2-3"],
        ),
    ],
)
def test_query_filters(logged: Store, flt: TimestepFilter, expected: list[str]) -> None:
    found, _, _ = logged.query(flt, None, 5)
    assert ids(found) == expected


def test_query_pages_by_keyset_with_a_stable_total(store: Store) -> None:
    record_log(store)
    everything = ids(store.query(TimestepFilter(), None, 100)[0])
    assert len(everything) == 11
    assert _all(store, TimestepFilter(), page=3) == (everything, [11] * 4)
    assert _all(store, TimestepFilter(descending=True), page=4) == (everything[::-1], [11] * 3)
    page, total, after = store.query(TimestepFilter(session_ids=["s2"]), None, 3)
    assert (ids(page), total) == (["ts-s2-1", "ts-s2-2", "ts-s2-3"], 7)
    assert after == (T0 + 41, 7)  # (time, seq): seqs count timesteps in order on both
    page, total, after = store.query(TimestepFilter(session_ids=["s2"]), after, 10)
    assert (ids(page), total, after) == (["ts-s2-4", "ts-s2-5", "ts-s2-6", "ts-s2-7"], 7, None)
    # Exactly one page left: no cursor past the end.
    page, _, after = store.query(TimestepFilter(session_ids=["s1"]), None, 4)
    assert len(page) == 4 and after is None


def test_query_sees_what_was_recorded_just_before(store: Store) -> None:
    for i in range(30):
        store.record([step("s", T0 + i, f"needle{i} hay")])
        assert ids(store.query(TimestepFilter(text=f"needle{i}"), None, 5)[0]) == [f"ts-s-{i + 1}"]


# --------------------------------------------------------------------------- export, import


def test_export_import_round_trip(store: Store, make_store: MakeStore) -> None:
    record_log(store)
    from tests.store._data import episode

    store.add_episode(episode(1, "An episode. With words.", concepts=[("c/x", 0.5, "stable")]))
    exported = list(store.export_records())
    kinds = [r["kind"] for r in exported]
    assert kinds[0] == "xdb-export"
    assert kinds.count("timestep") == 11 and kinds.count("episode") == 1
    assert kinds == sorted(
        kinds,
        key=[
            "xdb-export",
            "session",
            "tag",
            "timestep",
            "tag_application",
            "comment",
            "episode",
        ].index,
    )
    for backend in ("sqlite", "postgres"):
        other = make_store(backend)
        counts = other.import_records(exported)
        assert counts == {
            "session": 2,
            "tag": 4,
            "timestep": 11,
            "tag_application": 3,
            "comment": 2,
            "episode": 1,
            "skipped": 0,
        }
        assert list(other.export_records()) == exported
        again = other.import_records(exported)
        assert again["skipped"] == len(exported) - 1 and again["timestep"] == 0
        # The imported log goes on where it stopped, and is searchable.
        assert other.record([step("s2", T0 + 99, "more")]) == [("ts-s2-8", 8)]
        assert ids(other.query(TimestepFilter(text="friday"), None, 5)[0]) == ["ts-s1-3"]


def test_import_without_sessions_makes_them_from_timesteps(store: Store) -> None:
    records = [
        {"kind": "timestep", **t.model_dump(mode="json")}
        for t in [
            Timestep(
                id="ts-q-3",
                session_id="q",
                tick=3,
                timestamp=T0 / 1e6,
                event_type="input",
                role="user",
                content="three",
            ),
            Timestep(
                id="ts-q-1",
                session_id="q",
                tick=1,
                timestamp=(T0 + 5) / 1e6,
                event_type="input",
                role="user",
                content="one",
            ),
        ]
    ]
    assert store.import_records(records)["timestep"] == 2
    summary = store.session_summary("q")
    assert summary is not None
    assert (summary.timesteps, summary.current_tick) == (2, 3)
    assert store.record([step("q", T0 + 9, "four")]) == [("ts-q-4", 4)]


@pytest.mark.parametrize(
    "bad",
    [
        {"kind": "xdb-export", "version": 99},
        {"kind": "mystery"},
        {"kind": "timestep", "session_id": "s"},
        {  # JSON has no NaN; SQLite's JSON functions (compaction's) refuse the text of one
            "kind": "timestep",
            "id": "ts-s-1",
            "session_id": "s",
            "tick": 1,
            "timestamp": "2024-01-01T00:00:00Z",
            "event_type": "output",
            "content": "x",
            "concept_activations": {"c": float("nan")},
        },
        {
            "kind": "tag_application",
            "id": "ta-x",
            "tag_id": "tag-none",
            "target_type": "range",
            "session_id": "s",
            "range_start": 1,
            "range_end": 2,
            "confidence": 1.0,
            "source": "manual",
            "created_at": "2024-01-01T00:00:00Z",
            "created_by": "me",
        },
    ],
)
def test_import_refuses_bad_records_and_keeps_nothing(store: Store, bad: dict[str, Any]) -> None:
    good = {
        "kind": "session",
        "session_id": "kept?",
        "next_tick": 1,
        "created_at": "2024-01-01T00:00:00Z",
        "last_at": "2024-01-01T00:00:00Z",
    }
    with pytest.raises(InvalidRequest):
        store.import_records([good, bad])
    assert store.sessions(10) == (0, [])


# --------------------------------------------------------------------------- errors


def test_a_closed_store_refuses_calls(store: Store) -> None:
    store.close()
    with pytest.raises(StoreError):
        store.record([step("s", T0, "x")])
    with pytest.raises(StoreError):
        store.latest_session()
    store.close()  # twice is fine


def test_duplicate_ids_fail_as_store_errors(store: Store) -> None:
    record_log(store)
    with pytest.raises(StoreError):
        store.add_comment(comment("comment-1", "s1", TargetType.SESSION, "again"), None)
    from tests.store._data import episode

    store.add_episode(episode(1, "one"))
    with pytest.raises(StoreError):
        store.add_episode(episode(1, "one again"))
    assert store.stats()["comments"] == 2 and store.episode_max_seq() == 1


# --------------------------------------------------------------------------- both at once


def test_logs_match_across_stores(make_store: MakeStore) -> None:
    sqlite, postgres = make_store("sqlite"), make_store("postgres")
    for s in (sqlite, postgres):
        record_log(s)
    filters = [
        TimestepFilter(),
        TimestepFilter(descending=True),
        TimestepFilter(text="rain"),
        TimestepFilter(session_ids=["s2"], activations={"c/t": (0.1, 0.4)}),
    ]
    for flt in filters:
        assert _all(sqlite, flt, 3) == _all(postgres, flt, 3)
        assert sqlite.query(flt, None, 4) == postgres.query(flt, None, 4)
    assert sqlite.list_tags(None, None) == postgres.list_tags(None, None)
    assert sqlite.sessions(5) == postgres.sessions(5)
    assert sqlite.recent("s1", 3) == postgres.recent("s1", 3)
    assert list(sqlite.export_records()) == list(postgres.export_records())
