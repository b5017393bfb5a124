"""Compaction: the HOT window's oldest unpinned ticks become COLD reply records, once each,
by the threshold or on demand, and what was said about them survives."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

import xdb
from tests.fidelity.conftest import contract
from tests.local_http import JsonHandler, serving, v1_url
from xdb.fidelity.compaction import Tick, reply_concepts


@pytest.fixture
def db(target: str) -> Iterator[xdb.Database]:
    handle = xdb.connect(target, session_id="s1", embedder="hash")
    yield handle
    handle.close()


def reply(db: xdb.Database, event: str, words: list[str], **extra: Any) -> list[str]:
    """One output event, a token per word (a token's tokens: 1)."""
    return [
        db.record(
            event_type="output",
            content=f" {w}",
            token_id=i,
            event_id=event,
            event_start=i == 0,
            event_end=i == len(words) - 1,
            **extra,
        ).timestep_id
        for i, w in enumerate(words)
    ]


def ticks_left(db: xdb.Database, session: str = "s1") -> list[int]:
    return [t.tick for t in db.query(session_id=session, limit=10_000).timesteps]


def lineage_ticks(db: xdb.Database, record_ids: list[str]) -> list[int]:
    out: list[int] = []
    for rid in record_ids:
        details = db.get_episode_detail(episode_id=rid).episode.provenance.details
        for _session, lo, hi in details["lineage"]["ticks"]:
            out += range(lo, hi + 1)
    return sorted(out)


def test_context_reports_the_hot_window(db: xdb.Database) -> None:
    reply(db, "e1", ["a"] * 10)
    db.record(event_type="input", content="x" * 40)  # 10 tokens
    ctx = db.context()
    assert (ctx.current_tokens, ctx.max_tokens, ctx.current_tick) == (20, 8192, 11)
    assert ctx.utilization == round(20 / 8192, 6) and ctx.compaction_count == 0
    assert ctx.threshold == 0.8 and ctx.session_id == "s1"


def test_crossing_the_threshold_compacts_the_oldest_ticks(db: xdb.Database) -> None:
    contract(db, context_window_tokens=100)  # compacts above 80 tokens, down to 50
    for e in range(9):
        reply(db, f"e{e}", [f"w{e}"] * 10)
        assert db.context().current_tokens <= 80
    ctx = db.context()
    # Past tick 80, in the background, down to 50 tokens; at most 9 recorded since.
    assert ctx.compaction_count == 1 and 50 <= ctx.current_tokens <= 59
    left = ticks_left(db)
    assert left == list(range(91 - len(left), 91))  # the newest stay, in order
    records = db.query(limit=100).records
    assert records and all(r.level == "reply" and r.fidelity == "cold" for r in records)
    # Each tick is compacted once: the records' lineage and what is left are the log.
    assert lineage_ticks(db, [r.record_id for r in records]) == list(range(1, 91 - len(left)))
    assert sum(r.timesteps for r in records) == 90 - len(left)


def test_compacting_twice_changes_nothing(db: xdb.Database) -> None:
    for e in range(3):
        reply(db, f"e{e}", ["word"] * 20)
    first = db.compact(keep_tokens=25)
    assert first.compacted and first.timesteps_compacted == 35 and first.tokens_after == 25
    assert (first.tokens_before, first.records_made) == (60, 2)
    again = db.compact(keep_tokens=25)
    assert not again.compacted and again.timesteps_compacted == 0 and again.record_ids == []
    assert len(db.query(limit=100).records) == 2
    alone = db.query(limit=100, include_records=False)  # the timesteps, without records
    assert alone.records == [] and alone.timesteps == db.query(limit=100).timesteps
    assert db.context().compaction_count == 1


def test_pinned_ticks_are_never_compacted(db: xdb.Database) -> None:
    steps = reply(db, "e1", ["w"] * 30)
    db.pin(timestep_ids=steps[5:8])
    db.compact(keep_tokens=0)
    assert ticks_left(db) == [6, 7, 8, 30]
    (record,) = db.query(limit=10).records
    assert record.timesteps == 26 and (record.tick_start, record.tick_end) == (1, 29)
    assert lineage_ticks(db, [record.record_id]) == [*range(1, 6), *range(9, 30)]
    db.unpin(timestep_ids=steps[5:8])
    assert db.compact(keep_tokens=0).timesteps_compacted == 3


def test_an_events_episode_becomes_its_record(db: xdb.Database) -> None:
    reply(db, "e1", ["deploy", "failed", "again"])
    reply(db, "e2", ["then", "fixed"])
    before = {e.episode_id for e in db.search_episodes(text_query="deploy").episodes}
    made = db.compact(keep_tokens=0)
    assert set(made.record_ids) >= before  # the event's episode is the record: no copy
    hits = db.search_episodes(text_query="deploy").episodes
    assert [h.episode_id for h in hits] == sorted(before) and hits[0].fidelity == "reply"


def test_a_replys_concepts_are_its_weightiest(db: xdb.Database) -> None:
    # Weight: a concept's highest activation times the ticks carrying it; the 10 weightiest
    # with a score of 0.05 or more, ties by id as Python orders strings (not as a database
    # collation would: "c/B" before "c/_" and "c/b").
    heavy = {f"c/h{n}": 0.9 for n in range(7)}
    activations = [
        {**heavy, "c/b": 0.5, "c/B": 0.5, "c/_": 0.5, "c/zero": 0.0, "c/tiny": 0.01},
        {"c/x": 0.25, "c/T": 0.5, "c/zero": 0.0},
        {"c/x": 0.25, "c/a": 0.2, "c/tiny": 0.02},
    ]
    for i, acts in enumerate(activations):
        # Outside any event: an event's own episode would become the record, concepts and all.
        db.record(event_type="output", content=f" w{i}", token_id=i, concept_activations=acts)
    db.record(event_type="input", content="next")  # the newest tick stays HOT
    made = db.compact(keep_tokens=0)
    assert made.records_made == 1
    best: dict[str, tuple[float, int]] = {}
    for acts in activations:
        for concept, score in acts.items():
            old = best.get(concept, (0.0, 0))
            best[concept] = (max(old[0], score), old[1] + 1)
    ranked = sorted(best, key=lambda c: (-best[c][0] * best[c][1], c))[:10]
    expected = [(c, best[c][0]) for c in ranked if best[c][0] >= 0.05]
    episode = db.get_episode_detail(episode_id=made.record_ids[0]).episode
    got = sorted((t.concept_id, t.score) for t in episode.concept_tags)
    assert got == sorted(expected)
    # The tie of weight 0.5 (c/x twice at 0.25, five once at 0.5) cut where Python cuts:
    assert {c for c, _ in got} >= {"c/B", "c/T", "c/_"} and "c/b" not in dict(got)


def test_a_replys_concepts_read_any_stored_json() -> None:
    # Stored text json.dumps escaped (a lone surrogate, which the fast decoder refuses),
    # stored text, and what a driver decoded already: all are counted alike.
    odd = "c/odd\ud800"
    stored = [json.dumps({odd: 0.5, "c/a": 0.25}), '{"c/a":0.75}', {"c/a": 0.5, odd: 1}, None]
    group = [Tick(i, i, "output", None, " w", i, None, acts) for i, acts in enumerate(stored)]
    assert reply_concepts(group, 10) == {"c/a": (0.75, 3), odd: (1.0, 2)}
    assert reply_concepts(group, 1) == {"c/a": (0.75, 3)}


class CollectorWatch(JsonHandler):
    """A chat model that answers every summary alike and notes whether Python's cyclic
    collector was on while the request was made (this server shares the process)."""

    collector_on: ClassVar[list[bool]] = []

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        self.collector_on.append(gc.isenabled())
        message = {"role": "assistant", "content": "the model's summary"}
        self._send(200, json.dumps({"choices": [{"index": 0, "message": message}]}).encode())


def test_a_models_summaries_run_with_the_collector_on(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Compaction builds a batch's replies with the collector paused, but not around a
    # model's HTTP calls: each may take its whole timeout, and its failures make cycles.
    with serving(ThreadingHTTPServer(("127.0.0.1", 0), CollectorWatch)) as server:
        monkeypatch.setenv("XDB_SUMMARY_URL", v1_url(server))
        monkeypatch.setenv("XDB_SUMMARY_MODEL", "tiny")
        CollectorWatch.collector_on = []
        with xdb.connect(target, session_id="s1", embedder="hash") as db:
            for i, word in enumerate(["the", "build", "broke"]):  # outside any event: an
                # event's own episode would become the record, its text and all
                db.record(event_type="output", content=f" {word}", token_id=i)
            db.record(event_type="input", content="next")
            made = db.compact(keep_tokens=0)
            summaries = {
                db.get_episode_detail(episode_id=r).episode.content for r in made.record_ids
            }
    assert summaries == {"the model's summary"}
    assert CollectorWatch.collector_on == [True]


def test_tags_comments_exemplars_and_datasets_survive(db: xdb.Database) -> None:
    reply(db, "e1", ["the", "build", "broke"], concept_activations={"c/failure": 0.9})
    reply(db, "e2", ["we", "rolled", "back"])
    db.tag(tag_name_or_id="incident-ish", tick_range={"start": 2, "end": 3})
    db.tag(tag_name_or_id="rollback", event_id="e2")
    comment = db.comment(content="why did it break?", timestep_id="ts-s1-2").comment_id
    ex = db.add_exemplar(
        concept_id="c/failure", label="positive", tick_range={"start": 1, "end": 3}
    )
    episode = db.search_episodes(text_query="broke").episodes[0].episode_id
    db.add_exemplar(concept_id="c/failure", label="positive", episode_id=episode)
    built = db.build_dataset(target_concept_id="c/failure", sampling={"balance": "skewed"})
    db.compact(keep_tokens=0)
    found = db.query(tags=["incident-ish"]).records
    assert len(found) == 1 and found[0].tick_start == 1
    assert db.query(tags=["rollback"]).records[0].tick_start == 4
    assert db.query(concept_activations={"c/failure": {"min": 0.5}}).records[0].tick_end == 3
    assert db.query(text_search="rolled").records[0].tick_start == 4
    assert found[0].comment_ids == [comment] and found[0].exemplar_ids == [ex.exemplar.id]
    assert ex.exemplar.id in {x.id for x in db.exemplars(concept_id="c/failure").exemplars}
    labelled = db.search_episodes(label_filters={"concept_id": "c/failure"}).episodes
    assert found[0].record_id in {h.episode_id for h in labelled}
    members = db.dataset(dataset_id=built.dataset_id).members
    assert members  # frozen, and each member's episode is still there (kept as a record)
    for member in members:
        assert db.get_episode_detail(episode_id=member.episode_id).episode.episode_id
    db.maintenance()  # and maintenance keeps dataset members whole
    for member in members:
        assert db.get_episode_detail(episode_id=member.episode_id).episode.content
    assert db.tags().tags  # the tags themselves are untouched


def test_a_tick_compacted_away_cannot_be_pinned(db: xdb.Database) -> None:
    steps = reply(db, "e1", ["a", "b", "c"])
    db.compact(keep_tokens=0)
    with pytest.raises(xdb.NotFound, match="compacted into a COLD record"):
        db.pin(timestep_ids=[steps[0]])


def test_an_export_carries_pins_records_and_counts(target: str, tmp_path: Path) -> None:
    # Made on a SQLite file, imported into this test's store (either).
    with xdb.connect(tmp_path / "source.sqlite3", session_id="s1", embedder="hash") as source:
        steps = reply(source, "e1", ["a", "b", "c", "d"])
        source.pin(timestep_ids=steps[:1], reason="keep")
        source.compact(keep_tokens=0)
        records = list(source.export_records())
        made = source.query().records
    with xdb.connect(target, session_id="s1", embedder="hash") as copy:
        counts = copy.import_records(records)
        assert counts["memory_record"] == 1 and counts["timestep_hold"] == 1
        assert counts["compaction"] == 1
        assert [t.fidelity.value for t in copy.query().timesteps] == ["warm", "hot"]
        assert copy.query().records == made
        assert copy.context().compaction_count == 1
        assert copy.quota().warm.used_tokens == 1
        assert copy.import_records(records)["memory_record"] == 0  # nothing twice
