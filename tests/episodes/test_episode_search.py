"""search_episodes: every filter alone and combined against sets computed here, paging while
episodes are being written, sort orders, time zones, and bad cursors."""

from __future__ import annotations

import itertools
import random
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import xdb
from tests.episodes.conftest import is_postgres
from xdb.errors import InvalidRequest

KINDS = ["reply", "task", "incident"]
CONCEPTS = ["Deploy", "Failure", "Care", "Money"]
WORDS = ["kite", "river", "deploy", "budget", "garden", "server"]
BASE = datetime(2025, 1, 1, tzinfo=UTC)


def build(db: xdb.Database, n: int = 90, seed: int = 3) -> list[dict[str, Any]]:
    """``n`` episodes with seeded attributes; returns what was added, with ids."""
    rng = random.Random(seed)
    added = []
    for i in range(n):
        start = BASE + timedelta(hours=i)
        tags = [
            {
                "concept_id": c,
                "score": round(rng.random(), 2),
                "kind": rng.choice(["stable", "candidate"]),
            }
            for c in CONCEPTS
            if rng.random() < 0.4
        ]
        labels = (
            [
                {
                    "concept_id": "Care",
                    "label": rng.choice(["positive", "negative"]),
                    "confidence": 0.8,
                }
            ]
            if i % 7 == 0
            else []
        )
        fields: dict[str, Any] = {
            "content": f"episode {i} about the {WORDS[i % 6]} and the {WORDS[(i * 5) % 6]}",
            "kind": KINDS[i % 3],
            "namespace": f"ns{i % 2}",
            "time_window": {
                "start_time": start.isoformat(),
                "end_time": (start + timedelta(minutes=30)).isoformat(),
            },
            "concept_tags": tags,
            "labels": labels,
        }
        made = db.add_episode(**fields)
        added.append(
            {**fields, "id": made.episode_id, "start": start, "end": start + timedelta(minutes=30)}
        )
    return added


@pytest.fixture(scope="module")
def corpus(module_target: str) -> Any:
    with xdb.connect(module_target, embedder="hash") as db:
        added = build(db)
        assert db.wait_for_embeddings(30)
        yield db, added


def walk(db: xdb.Database, **request: Any) -> list[str]:
    """Every episode id over all pages, in order."""
    ids: list[str] = []
    cursor = None
    while True:
        page = db.search_episodes(**request, page={"page_size": 7, "cursor": cursor})
        ids += [h.episode_id for h in page.episodes]
        cursor = page.next_cursor
        if cursor is None:
            return ids


def tag(ep: dict[str, Any], concept: str) -> dict[str, Any] | None:
    return next((t for t in ep["concept_tags"] if t["concept_id"] == concept), None)


# Each filter: (request fields, predicate over an added episode).
FILTERS: dict[str, tuple[dict[str, Any], Any]] = {
    "namespace": ({"namespace": "ns1"}, lambda e: e["namespace"] == "ns1"),
    "time": (
        {"time_range": {"start_time": "2025-01-02T00:00:00Z", "end_time": "2025-01-03T06:10:00Z"}},
        lambda e: (
            e["end"] >= BASE + timedelta(days=1)
            and e["start"] <= BASE + timedelta(days=2, hours=6, minutes=10)
        ),
    ),
    "kinds": ({"episode_kinds": ["task", "incident"]}, lambda e: e["kind"] in ("task", "incident")),
    "concept": (
        {"concept_filters": [{"concept_id": "Deploy", "min_score": 0.3}]},
        lambda e: (t := tag(e, "Deploy")) is not None and t["score"] >= 0.3,
    ),
    "concept_kind": (
        {"concept_filters": [{"concept_id": "Failure", "kind": "candidate", "role": "tag"}]},
        lambda e: (t := tag(e, "Failure")) is not None and t["kind"] == "candidate",
    ),
    "absent": (
        {"concept_filters": [{"concept_id": "Money", "polarity": "absent"}]},
        lambda e: tag(e, "Money") is None,
    ),
    "exemplar": (
        {"concept_filters": [{"concept_id": "Care", "role": "exemplar_label", "min_score": 0.5}]},
        lambda e: any(lb["label"] == "positive" for lb in e["labels"]),
    ),
    "labels": (
        {"label_filters": {"concept_id": "Care", "label": "negative", "min_confidence": 0.5}},
        lambda e: any(lb["label"] == "negative" for lb in e["labels"]),
    ),
}


def expected(added: list[dict[str, Any]], names: tuple[str, ...]) -> list[str]:
    return [e["id"] for e in added if all(FILTERS[n][1](e) for n in names)]


def request(names: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in names:
        for key, value in FILTERS[name][0].items():
            out[key] = out.get(key, []) + value if key == "concept_filters" else value
    return out


COMBOS = (
    [(n,) for n in FILTERS]
    + list(itertools.combinations(FILTERS, 2))
    + [
        ("namespace", "time", "kinds", "concept"),
        ("namespace", "absent", "labels"),
    ]
)


@pytest.mark.parametrize("names", COMBOS, ids=["+".join(c) for c in COMBOS])
def test_filters_alone_and_combined_match_the_sets_computed_here(
    corpus: Any, names: tuple[str, ...]
) -> None:
    db, added = corpus
    want = expected(added, names)
    assert walk(db, **request(names), sort={"by": "time_asc"}) == want
    assert walk(db, **request(names), sort={"by": "time_desc"}) == want[::-1]
    # With a text query on top, relevance returns the filtered ones that match the words.
    ranked = walk(db, **request(names), text_query="river garden")
    assert set(ranked) <= set(want)
    with_words = {e["id"] for e in added if {"river", "garden"} & set(e["content"].split())}
    assert with_words & set(want) <= set(ranked)


def test_relevance_ranks_text_matches_first(corpus: Any) -> None:
    db, _added = corpus
    hits = db.search_episodes(
        text_query="what was said about the kite?", page={"page_size": 5}
    ).episodes
    assert hits and all("kite" in h.snippet for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_concept_relevance_orders_by_score_and_score_weight_mixes(corpus: Any) -> None:
    db, added = corpus
    hits = walk(db, concept_filters=[{"concept_id": "Care"}])
    scores = {e["id"]: t["score"] for e in added if (t := tag(e, "Care"))}
    assert hits == sorted(scores, key=lambda i: (-scores[i], -[e["id"] for e in added].index(i)))
    text_only = db.search_episodes(
        text_query="kite", concept_filters=[{"concept_id": "Care"}], sort={"score_weight": 0.0}
    )
    concept_only = db.search_episodes(
        text_query="kite", concept_filters=[{"concept_id": "Care"}], sort={"score_weight": 1.0}
    )
    assert "kite" in text_only.episodes[0].snippet
    assert concept_only.episodes[0].episode_id == hits[0]
    # At either end of the weight, the other list's episodes stay, ranked below.
    kite = {e["id"] for e in added if "kite" in e["content"]}
    for weight in (0.0, 1.0):
        walked = walk(db, text_query="kite", concept_filters=[{"concept_id": "Care"}],
                      sort={"score_weight": weight})  # fmt: skip
        assert set(scores) <= set(walked) and kite & set(scores) <= set(walked)


def test_recency_weight_prefers_newer_episodes(corpus: Any) -> None:
    db, added = corpus
    plain = walk(db, text_query="server")
    recent = walk(db, text_query="server", sort={"recency_weight": 1.0})
    assert set(plain) == set(recent) and plain != recent
    mixed = walk(db, text_query="server", sort={"recency_weight": 0.5})
    assert sorted(mixed) == sorted(plain)  # each once: every page measures from one moment
    start = {e["id"]: e["start"] for e in added}
    assert [start[i] for i in recent] == sorted((start[i] for i in recent), reverse=True)


def test_each_hit_says_what_each_signal_added_to_its_score(corpus: Any) -> None:
    db, _added = corpus
    care = [{"concept_id": "Care"}]
    asked = {"sort": {"recency_weight": 0.3}, "page": {"page_size": 20}}
    mixed = db.search_episodes(text_query="kite", concept_filters=care, **asked).episodes
    assert mixed
    for h in mixed:  # the parts, rounded, sum to the score
        assert round(sum(h.signals.values()), 6) == h.score
        assert set(h.signals) <= {"bm25", "vector", "session", "concepts", "recency"}
        assert ("bm25" in h.signals) == ("kite" in h.snippet)
        assert ("concepts" in h.signals) == any(
            t.concept_id.endswith("Care") for t in h.concept_tags
        )
    by_concept = db.search_episodes(concept_filters=care, page={"page_size": 3}).episodes
    assert [set(h.signals) for h in by_concept] == [{"concepts"}] * 3
    assert by_concept[0].signals["concepts"] == by_concept[0].score
    by_time = db.search_episodes(text_query="kite", sort={"by": "time_desc"}).episodes
    assert by_time and all(h.signals == {} for h in by_time)


def test_random_order_is_reproducible_with_its_seed(corpus: Any) -> None:
    db, added = corpus
    one = walk(db, sort={"by": "random", "seed": 1})
    assert sorted(one) == sorted(e["id"] for e in added)
    assert walk(db, sort={"by": "random", "seed": 1}) == one
    assert walk(db, sort={"by": "random", "seed": 2}) != one


def test_time_range_without_a_zone_is_utc(corpus: Any) -> None:
    db, _added = corpus
    naive = walk(
        db, time_range={"start_time": "2025-01-01T05:00:00", "end_time": "2025-01-01T07:00:00"}
    )
    zoned = walk(
        db,
        time_range={
            "start_time": "2025-01-01T06:00:00+01:00",
            "end_time": "2025-01-01T08:00:00+01:00",
        },
    )
    assert naive == zoned and len(naive) == 3


@pytest.mark.parametrize(
    "sort", [{"by": "relevance"}, {"by": "time_desc"}, {"by": "random", "seed": 5}]
)
def test_paging_returns_each_match_once_while_episodes_are_written(
    target: str, sort: dict[str, Any]
) -> None:
    with xdb.connect(target, embedder="hash") as db:
        originals = {
            db.add_episode(
                content=f"alpha beta {i}",
                concept_tags=[{"concept_id": "A", "score": (i % 10) / 10}],
            ).episode_id
            for i in range(60)
        }
        db.wait_for_embeddings(30)
        stop = threading.Event()

        def writer() -> None:
            i = 0
            while not stop.is_set():
                db.add_episode(
                    content=f"alpha late {i}", concept_tags=[{"concept_id": "A", "score": 0.95}]
                )
                i += 1

        thread = threading.Thread(target=writer)
        thread.start()
        try:
            seen: list[str] = []
            cursor = None
            first = True
            while first or cursor:
                page = db.search_episodes(
                    text_query="alpha beta" if sort["by"] == "relevance" else None,
                    concept_filters=[{"concept_id": "A"}],
                    sort=sort,
                    page={"page_size": 9, "cursor": cursor},
                )
                seen += [h.episode_id for h in page.episodes]
                cursor, first = page.next_cursor, False
        finally:
            stop.set()
            thread.join()
        assert len(seen) == len(set(seen)), "an episode came back twice"
        assert originals <= set(seen), "an episode present from the start was skipped"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"page": {"cursor": "garbage"}}, "cursor"),
        ({"sort": {"by": "sideways"}}, "sort"),
        ({"concept_filters": [{"concept_id": "A", "polarity": "maybe"}]}, "concept_filters"),
        ({"time_range": {"start_time": "2025-01-02", "end_time": "2025-01-01"}}, "time_range"),
        ({"page": {"page_size": 0}}, "page"),
    ],
)
def test_bad_requests_name_the_field(corpus: Any, fields: dict[str, Any], field: str) -> None:
    db, _ = corpus
    with pytest.raises(InvalidRequest) as err:
        db.search_episodes(**fields)
    assert field in str(err.value)


def test_a_cursor_is_refused_with_other_filters(corpus: Any) -> None:
    db, _ = corpus
    page = db.search_episodes(namespace="ns0", page={"page_size": 2})
    assert page.next_cursor
    with pytest.raises(InvalidRequest, match="different filters"):
        db.search_episodes(namespace="ns1", page={"page_size": 2, "cursor": page.next_cursor})


def test_a_turn_is_found_by_the_words_of_its_neighbours(target: str) -> None:
    with xdb.connect(target, embedder="hash") as db:
        turns = ["Where did you go hiking in May?", "Yes, the Alps, it was lovely!", "Nice."]
        ids = [
            db.add_episode(
                content=t,
                session_id="chat",
                time_window={
                    "start_time": f"2025-05-08T10:0{i}:00Z",
                    "end_time": f"2025-05-08T10:0{i}:00Z",
                },
            ).episode_id
            for i, t in enumerate(turns)
        ]
        db.add_episode(content="Lunch was good.", session_id="other")
        found = db.search_episodes(text_query="hiking", page={"page_size": 10}).episodes
        # The answer never says "hiking"; the question before it does.
        assert ids[1] in [h.episode_id for h in found]
        # Date words are indexed too: people ask "what happened in May 2025?".
        in_may = db.search_episodes(text_query="May 2025", page={"page_size": 10}).episodes
        assert set(ids) <= {h.episode_id for h in in_may}
        # Deleting the middle turn makes its neighbours each other's context, exactly.
        db.delete_episode(episode_id=ids[1])
        context = _context(target, ids[2])
        assert "hiking" in context and "Alps" not in context


def _context(target: str, episode_id: str) -> str:
    """An episode's indexed context, read from the database itself."""
    if is_postgres(target):
        import psycopg

        with psycopg.connect(target) as pg:
            row = pg.execute("SELECT context FROM episodes WHERE id = %s", (episode_id,)).fetchone()
            assert row is not None
            return str(row[0])
    conn = sqlite3.connect(target)
    try:
        # FTS5's external-content index must still agree with the texts it indexes (SQLite
        # makes each context from the neighbours: ``sqlite/episode_texts``).
        conn.execute("INSERT INTO episodes_fts (episodes_fts) VALUES ('integrity-check')")
        return str(
            conn.execute(
                "SELECT t.context FROM episode_texts t JOIN episodes e ON e.seq = t.seq"
                " WHERE e.id = ?",
                (episode_id,),
            ).fetchone()[0]
        )
    finally:
        conn.close()


def test_relevance_agrees_across_stores(tmp_path: Path, postgres_url: str) -> None:
    # The same episodes on both stores. Text ranking is the same tantivy BM25 on both; the
    # vector list is the in-memory index's 8-bit codes on SQLite and pgvector's exact
    # float32 cosine on PostgreSQL, so fused scores differ by a few thousandths: the same
    # episodes come back, with the same clear winner, and near ties may swap.
    queries = ["kite river", "what about the budget?", "garden server deploy"]
    answers: dict[str, list[list[tuple[str, float]]]] = {}
    for name, target in (("sqlite", str(tmp_path / "x.sqlite3")), ("postgres", postgres_url)):
        with xdb.connect(target, embedder="hash") as db:
            build(db, n=30)
            assert db.wait_for_embeddings(30)
            answers[name] = [
                [
                    (h.snippet, h.score)
                    for h in db.search_episodes(
                        text_query=q, namespace="ns1", page={"page_size": 50}
                    ).episodes
                ]
                for q in queries
            ]
            # pgvector ranked PostgreSQL's: that process holds no vectors in memory.
            assert (db.indexer._index is None) == (name == "postgres")
    for lite, pg in zip(answers["sqlite"], answers["postgres"], strict=True):
        assert lite and {s for s, _ in lite} == {s for s, _ in pg}
        assert lite[0][0] == pg[0][0]
        assert [v for _, v in lite] == pytest.approx([v for _, v in pg], abs=0.02)


def test_a_filtered_search_lifts_the_sessions_of_text_matches(target: str) -> None:
    """With a concept filter the sessions come from the allowlist's own query; the boost
    must be the one an unfiltered search gives (a2 and b1 tie on everything else)."""
    with xdb.connect(target, embedder="hash") as db:
        tagged = [{"concept_id": "c/x", "score": 0.5}]
        made = {}
        for name, session, text in [
            ("a1", "A", "Kayak on the lake."),
            ("a_mid", "A", "Walking home."),  # a2's only neighbour: no kayak in its context
            ("a2", "A", "Lunch break."),
            ("b1", "B", "Lunch break."),
        ]:
            made[name] = db.add_episode(content=text, session_id=session, concept_tags=tagged)
        db.wait_for_embeddings(30)
        hits = db.search_episodes(
            text_query="kayak",
            concept_filters=[{"concept_id": "c/x"}],
            page={"page_size": 10},
        ).episodes
        order = [h.episode_id for h in hits]
        assert order[0] == made["a1"].episode_id
        # Without the boost b1 would come first: the newer of two equal scores.
        assert order.index(made["a2"].episode_id) < order.index(made["b1"].episode_id)


def test_a_session_filter_keeps_that_sessions_episodes(target: str) -> None:
    with xdb.connect(target, embedder="hash") as db:
        for n in range(6):
            care = [{"concept_id": "Care", "score": 0.1 * (n + 1)}]
            db.add_episode(content=f"kite, part {n}", session_id=f"s{n % 2}", concept_tags=care)
        db.add_episode(content="kite without a session")
        for sort in ({"by": "time_asc"}, {"by": "relevance"}):
            for asked in ({"text_query": "kite"}, {"concept_filters": [{"concept_id": "Care"}]}):
                hits = db.search_episodes(session_id="s1", sort=sort, **asked).episodes
                assert sorted(h.snippet[-1] for h in hits) == ["1", "3", "5"], (sort, asked)
                assert {h.session_id for h in hits} == {"s1"}
        assert db.search_episodes(session_id="s9", text_query="kite").episodes == []
