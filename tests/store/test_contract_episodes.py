"""The store contract, part two: episodes, their filters, rankings, text changes, vectors.

Each test runs on SQLite and on PostgreSQL with the same expectations. Where the answer
is a ranking the two compute differently (BM25 in FTS5, ts_rank in PostgreSQL) the tests
hold both to what a ranking must get right: which episodes match, and a clear winner first.
``test_episodes_match_across_stores`` compares everything else between the two directly,
the seeded random order included (both stores use the same shuffle of seqs).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from tests.store._data import DAY, T0, episode, record_log
from xdb.errors import StoreError
from xdb.store.protocol import Store
from xdb.store.records import episode_record
from xdb.store.types import ConceptCondition, EpisodeFilter, NewEpisode, Place

MakeStore = Callable[[str], Store]
MIN = 60_000_000


def _episodes() -> list[NewEpisode]:
    """Sessions "conv" (seqs 1, 5, 2 in time order) and "other" (3, 6); 4 in "work"."""
    return [
        episode(
            1,
            "The cat sat on the mat. It was warm by the fire.",
            concepts=[("c/cat", 0.9, "stable"), ("c/home", 0.4, "candidate")],
            labels=[("c/cat", "positive", 0.8)],
        ),
        episode(
            2,
            "Running late for the train to Paris. The conductor waited.",
            concepts=[("c/travel", 0.7, "stable")],
            labels=[("c/travel", "negative", 0.6)],
        ),
        episode(
            3,
            "A dog chased the cat around the garden. Nobody was hurt.",
            kind="task",
            session="other",
            concepts=[("c/cat", 0.5, "stable"), ("c/dog", 0.8, "stable")],
        ),
        episode(
            4,
            "Deployment of the billing service failed at midnight. Rolled back.",
            namespace="work",
            kind="incident",
            session=None,
            start_us=T0 + DAY,
            concepts=[("c/ops", 0.95, "stable")],
            labels=[("c/ops", "positive", 0.9), ("c/ops", "positive", 0.95)],
        ),
        episode(5, "Spring in Paris: the cafés were full. We walked.", start_us=T0 + 90_000_000),
        episode(
            6,
            "Notes about cats and dogs. Mostly cats.",
            kind="note",
            session="other",
            length_us=10 * MIN,
            # A repeated concept: the first row's kind, the highest score.
            concepts=[("c/cat", 0.3, "candidate"), ("c/cat", 0.6, "stable")],
        ),
    ]


@pytest.fixture
def filled(store: Store) -> Store:
    assert [store.add_episode(e) for e in _episodes()] == [1, 2, 3, 4, 5, 6]
    return store


def _every_page(store: Store, flt: EpisodeFilter, desc: bool, seed: int | None) -> list[int]:
    out: list[int] = []
    after = None
    while page := store.episode_page(flt, after, 2, desc, seed):
        out += [seq for _, seq in page]
        after = page[-1]
    return out


# --------------------------------------------------------------------------- rows


def test_episodes_read_back_as_written(filled: Store) -> None:
    written = {e.id: e for e in _episodes()}
    by_id = filled.episodes_by_ids([*written, "episode-missing"])
    assert {k: v.episode for k, v in by_id.items()} == written
    assert [by_id[f"episode-{n:03d}"].seq for n in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    by_seq = filled.episodes_by_seqs([6, 1, 99])
    assert sorted(by_seq) == [1, 6]
    assert by_seq[1].episode == written["episode-001"]
    assert list(by_seq[1].episode.metadata["nested"]) == ["ü"]
    assert filled.episodes_by_ids([]) == {} and filled.episodes_by_seqs([]) == {}
    assert filled.episode_max_seq() == 6
    places = filled.episode_places([1, 4, 3, 99])
    assert places == {
        s: Place(e.session_id, e.end_us, e.namespace, e.start_us)
        for s in (1, 3, 4)
        if (e := written[f"episode-{s:03d}"])
    }
    assert [places[s][0] for s in (1, 3, 4)] == ["conv", "other", None]


def test_neighbours_follow_time_within_a_session(filled: Store) -> None:
    assert filled.episode_neighbours(1) == (None, "episode-005")
    assert filled.episode_neighbours(5) == ("episode-001", "episode-002")
    assert filled.episode_neighbours(2) == ("episode-005", None)
    assert filled.episode_neighbours(4) == (None, None)  # no session
    assert filled.episode_neighbours(99) == (None, None)


def test_sessionless_episodes_are_neighbours_within_the_gap_in_their_namespace(
    store: Store,
) -> None:
    # 1, 2 and 3 within 30 minutes of the one before; 4 an hour later; 5 elsewhere; 6 has a
    # session. Neighbours give context: 2 is found by 1's and 3's words.
    for n, text, minute, namespace, session in [
        (1, "alpha", 0, "default", None),
        (2, "bravo", 20, "default", None),
        (3, "charlie", 45, "default", None),
        (4, "delta", 105, "default", None),
        (5, "echo", 21, "elsewhere", None),
        (6, "foxtrot", 21, "default", "conv"),
    ]:
        store.add_episode(
            episode(n, text, namespace=namespace, session=session, start_us=T0 + minute * MIN)
        )
    assert store.episode_neighbours(1) == (None, "episode-002")
    assert store.episode_neighbours(2) == ("episode-001", "episode-003")
    assert store.episode_neighbours(3) == ("episode-002", None)  # 4 is an hour on
    assert store.episode_neighbours(4) == (None, None)
    assert store.episode_neighbours(5) == (None, None)
    assert store.episode_neighbours(6) == (None, None)

    def found(word: str) -> set[int]:
        return {s for s, _ in store.episode_text_ranking(EpisodeFilter(), [word], 10)}

    assert found("alpha") == {1, 2} and found("charlie") == {2, 3}
    assert found("delta") == {4} and found("echo") == {5} and found("foxtrot") == {6}
    # One arriving between 3 and 4 joins them: each now has a neighbour on that side.
    store.add_episode(episode(7, "golf", session=None, start_us=T0 + 75 * MIN))
    assert store.episode_neighbours(7) == ("episode-003", "episode-004")
    assert found("golf") == {3, 4, 7}
    assert store.delete_episode("episode-002") == 2
    assert store.episode_neighbours(1) == (None, None)  # 3 starts 45 minutes after it
    assert found("alpha") == {1}


def test_delete_takes_everything_that_hangs_on_the_episode(filled: Store) -> None:
    filled.store_vectors("m", [(5, b"\0\0\x80?")])
    assert filled.delete_episode("episode-005") == 5
    assert filled.delete_episode("episode-005") is None
    assert filled.delete_episode("episode-missing") is None
    assert filled.episodes_by_seqs([5]) == {}
    assert filled.episode_neighbours(1) == (None, "episode-002")
    assert filled.load_vectors("m") == []
    assert 5 not in filled.episode_seqs(EpisodeFilter())
    assert [s for s, _ in filled.episode_text_ranking(EpisodeFilter(), ["spring"], 10)] == []
    assert filled.episode_max_seq() == 6


def test_numbers_are_never_reused(filled: Store) -> None:
    # Caches keep watermarks over seq and vseq (the vector index loads vectors above its
    # newest vseq, paging snapshots ignore seqs above theirs): a number handed out again
    # would be a row they never see, or one they mistake for another.
    one = _vector(1, 0)
    assert filled.store_vectors("m", [(5, one), (6, one)]) == [1, 2]
    assert filled.delete_episode("episode-006") == 6  # the newest episode and vector
    assert filled.add_episode(episode(7, "seven")) == 7
    assert filled.store_vectors("m", [(7, one)]) == [3]
    assert filled.drop_other_vectors("n") == 2  # every vector, the newest included
    assert filled.store_vectors("n", [(7, one)]) == [4]
    assert filled.delete_episode("episode-007") == 7
    assert filled.delete_episode("episode-005") == 5
    assert filled.add_episode(episode(8, "eight")) == 8
    assert filled.store_vectors("n", [(8, one)]) == [5]
    assert filled.episode_max_seq() == 8


def test_a_duplicate_id_is_refused_and_nothing_is_kept(filled: Store) -> None:
    with pytest.raises(StoreError):
        filled.add_episode(episode(1, "Again", session="fresh"))
    assert filled.episode_places([7]) == {}
    assert filled.episode_seqs(EpisodeFilter(session_id="fresh")) == []


# --------------------------------------------------------------------------- paging


def test_pages_by_time_both_ways(filled: Store) -> None:
    everything = EpisodeFilter()
    assert _every_page(filled, everything, False, None) == [1, 5, 2, 3, 6, 4]
    assert _every_page(filled, everything, True, None) == [4, 6, 3, 2, 5, 1]
    page = filled.episode_page(everything, None, 2, False)
    assert page == [(T0 + MIN, 1), (T0 + 90_000_000, 5)]
    assert filled.episode_page(everything, page[-1], 1, False) == [(T0 + 2 * MIN, 2)]
    snapshot = EpisodeFilter(namespace="default", max_seq=5)
    assert _every_page(filled, snapshot, False, None) == [1, 5, 2, 3]


def test_random_order_is_a_seeded_shuffle(filled: Store) -> None:
    everything = EpisodeFilter()
    first = _every_page(filled, everything, False, 7)
    assert sorted(first) == [1, 2, 3, 4, 5, 6]
    assert _every_page(filled, everything, False, 7) == first
    assert _every_page(filled, everything, True, 7) == first[::-1]
    assert _every_page(filled, everything, False, 8) != first
    keys = filled.episode_page(everything, None, 6, False, 7)
    assert keys == sorted(keys)
    assert _every_page(filled, EpisodeFilter(kinds=["turn"]), False, 7) == [
        s for s in first if s in (1, 2, 5)
    ]


# --------------------------------------------------------------------------- filters


@pytest.mark.parametrize(
    ("flt", "expected"),
    [
        (EpisodeFilter(), [1, 2, 3, 4, 5, 6]),
        (EpisodeFilter(namespace="work"), [4]),
        (EpisodeFilter(namespace="nowhere"), []),
        (EpisodeFilter(session_id="other"), [3, 6]),
        # Windows overlap [start_us, end_us]: 6 lasts ten minutes from T0 + 6 min.
        (EpisodeFilter(start_us=T0 + 6 * MIN + 5 * MIN), [4, 6]),
        (EpisodeFilter(end_us=T0 + 90_000_000), [1, 5]),
        (EpisodeFilter(start_us=T0 + 2 * MIN, end_us=T0 + 3 * MIN), [2, 3]),
        (EpisodeFilter(kinds=["task", "incident"]), [3, 4]),
        (EpisodeFilter(max_seq=3), [1, 2, 3]),
        (
            EpisodeFilter(concepts=[ConceptCondition("c/cat", 0.5, None, False, True, False)]),
            [1, 3, 6],
        ),
        (
            EpisodeFilter(concepts=[ConceptCondition("c/cat", 0.5, "stable", False, True, False)]),
            [1, 3],
        ),
        (
            EpisodeFilter(
                concepts=[ConceptCondition("c/cat", 0.0, "candidate", False, True, False)]
            ),
            [6],
        ),
        (
            EpisodeFilter(concepts=[ConceptCondition("c/cat", 0.7, None, True, True, False)]),
            [2, 3, 4, 5, 6],
        ),
        (EpisodeFilter(concepts=[ConceptCondition("c/cat", 0.5, None, False, False, True)]), [1]),
        (EpisodeFilter(concepts=[ConceptCondition("c/cat", 0.9, None, False, False, True)]), []),
        (EpisodeFilter(concepts=[ConceptCondition("c/travel", 0.1, None, False, False, True)]), []),
        (EpisodeFilter(concepts=[ConceptCondition("c/travel", 0.1, None, False, True, True)]), [2]),
        (
            EpisodeFilter(
                concepts=[
                    ConceptCondition("c/cat", 0.1, None, False, True, True),
                    ConceptCondition("c/dog", 0.1, None, True, True, True),
                ]
            ),
            [1, 6],
        ),
        (EpisodeFilter(label_concept="c/travel"), [2]),
        (EpisodeFilter(label="positive"), [1, 4]),
        (EpisodeFilter(label_min_confidence=0.85), [4]),
        (EpisodeFilter(label_concept="c/cat", label="negative"), []),
        (EpisodeFilter(label_concept="c/ops", label="positive", label_min_confidence=0.92), [4]),
        (EpisodeFilter(namespace="default", kinds=["turn"], session_id="conv", max_seq=2), [1, 2]),
    ],
)
def test_episode_filters(filled: Store, flt: EpisodeFilter, expected: list[int]) -> None:
    # episode_seqs promises no order; sorted, the sets must agree.
    assert sorted(filled.episode_seqs(flt)) == expected
    assert sorted(s for _, s in filled.episode_page(flt, None, 100, False)) == expected


# --------------------------------------------------------------------------- rankings


def test_text_ranking_matches_words_stems_and_context(filled: Store) -> None:
    def members(*terms: str, flt: EpisodeFilter | None = None) -> set[int]:
        ranked = filled.episode_text_ranking(flt or EpisodeFilter(), list(terms), 100)
        assert all(score > 0 for _, score in ranked)
        assert [s for s, _ in ranked] == [s for s, _ in sorted(ranked, key=lambda r: -r[1])]
        return {seq for seq, _ in ranked}

    # "cats" stems to "cat"; 5 holds its neighbours' words (1's) in its context.
    assert members("cat") == {1, 3, 5, 6}
    assert members("cats") == {1, 3, 5, 6}
    assert members("run") == members("running") == {2, 5}
    assert members("billing") == {4}
    assert members("billing", "garden") == {3, 4, 6}
    assert members("the") == {1, 2, 3, 4, 5, 6}  # a common word still matches
    assert members("cafes") == {1, 2, 5}  # accents fold
    assert members("november") == {1, 2, 3, 4, 5, 6}  # date words
    assert members("14") == {1, 2, 3, 5, 6}
    assert members("15") == {4}  # a day later
    assert members("cat", flt=EpisodeFilter(session_id="other")) == {3, 6}
    assert members("zebra") == set()
    assert filled.episode_text_ranking(EpisodeFilter(), [], 10) == []
    assert len(filled.episode_text_ranking(EpisodeFilter(), ["the"], 2)) == 2


def test_text_ranking_puts_the_clear_winner_first(store: Store) -> None:
    for n, text in enumerate(["apple apple apple banana", "apple cherry", "cherry banana"], 1):
        # Each in a namespace of its own: no neighbour's words in its context.
        store.add_episode(episode(n, text, namespace=f"ns{n}", session=None, summary=""))
    apple = store.episode_text_ranking(EpisodeFilter(), ["apple"], 10)
    assert [s for s, _ in apple] == [1, 2]
    both = store.episode_text_ranking(EpisodeFilter(), ["apple", "cherry"], 10)
    assert sorted(s for s, _ in both) == [1, 2, 3] and both[0][0] == 2


def test_concepts_carried_are_those_a_record_names(filled: Store) -> None:
    record_log(filled)  # activations c/rain and c/t; a concept tag "weather", a bud "idea"
    asked = ["c/cat", "c/home", "c/travel", "c/rain", "c/t", "weather", "idea", "alice", "c/no"]
    expected = {"c/cat", "c/home", "c/travel", "c/rain", "c/t", "weather", "idea"}
    assert filled.concepts_carried(asked) == expected  # alice is an entity tag, not a concept
    assert filled.concepts_carried([]) == set()
    filled.delete_episode("episode-002")  # c/travel's one episode (a tag and a label)
    assert filled.concepts_carried(["c/travel", "c/cat"]) == {"c/cat"}


def test_concept_ranking_sums_scores(filled: Store) -> None:
    def ranked(*concepts: str, flt: EpisodeFilter | None = None) -> list[tuple[int, float]]:
        found = filled.episode_concept_ranking(flt or EpisodeFilter(), list(concepts), 10)
        return [(s, round(v, 6)) for s, v in found]

    assert ranked("c/cat") == [(1, 0.9), (6, 0.6), (3, 0.5)]
    assert ranked("c/cat", "c/dog") == [(3, 1.3), (1, 0.9), (6, 0.6)]
    assert ranked("c/cat", flt=EpisodeFilter(kinds=["task", "note"])) == [(6, 0.6), (3, 0.5)]
    assert ranked("c/none") == [] and ranked() == []
    assert len(filled.episode_concept_ranking(EpisodeFilter(), ["c/cat"], 1)) == 1


def test_matches_are_the_filter_with_concept_scores(filled: Store) -> None:
    def matches(flt: EpisodeFilter, *concepts: str) -> list[tuple[int, float | None]]:
        found = filled.episode_matches(flt, list(concepts))
        # Each comes with its session, as episode_places gives it.
        places = filled.episode_places([s for s, _, _ in found])
        assert {s: session for s, session, _ in found} == {s: p[0] for s, p in places.items()}
        return sorted((s, None if v is None else round(v, 6)) for s, _, v in found)

    everything = sorted(filled.episode_seqs(EpisodeFilter()))
    assert [s for s, _ in matches(EpisodeFilter(), "c/cat")] == everything
    assert matches(EpisodeFilter(kinds=["task", "note"]), "c/cat", "c/dog") == [
        (s, {3: 1.3, 6: 0.6}.get(s))
        for s in sorted(filled.episode_seqs(EpisodeFilter(kinds=["task", "note"])))
    ]
    # The scored ones are exactly the concept ranking, under the same filter.
    flt = EpisodeFilter(kinds=["task", "note"])
    scored = sorted((s, v) for s, v in matches(flt, "c/cat") if v is not None)
    ranked = filled.episode_concept_ranking(flt, ["c/cat"], 10)
    assert scored == sorted((s, round(v, 6)) for s, v in ranked)


# --------------------------------------------------------------------------- text changes


def test_text_changes_log_every_document_change(filled: Store) -> None:
    changes = filled.text_changes(0, 1000)
    numbers = [c for c, _, _ in changes]
    assert numbers == sorted(set(numbers)) and filled.latest_text_change() == numbers[-1]
    latest = {seq: doc for _, seq, doc in changes}
    assert sorted(latest) == [1, 2, 3, 4, 5, 6]
    doc = latest[5]
    assert doc is not None
    text, namespace, start, end, kind, tags, positive = doc
    assert (namespace, start, end, kind) == ("default", T0 + 90_000_000, T0 + 91_000_000, "turn")
    assert tags == () and positive == ()
    # Tags once each, with the kind of their first row (as the concept rows keep it);
    # only positive labels, once each.
    docs = {seq: d for seq, d in latest.items() if d is not None}
    assert (docs[6].tags, docs[6].positive) == ((("c/cat", "candidate"),), ())
    assert docs[4].positive == ("c/ops",) and docs[2].positive == ()
    assert docs[1].tags == (("c/cat", "stable"), ("c/home", "candidate"))
    assert text.startswith("Spring in Paris: the cafés were full Spring in Paris")
    assert "14 November 2023" in text and "The cat sat" in text and "Running late" in text
    assert filled.text_changes(numbers[-1], 10) == []
    assert filled.text_changes(numbers[1], 1) == [changes[2]]
    filled.delete_episode("episode-005")
    after = filled.text_changes(numbers[-1], 10)
    assert after[0][1:] == (5, None)
    assert {seq for _, seq, _ in after} == {5, 1, 2}  # its neighbours lost it from context
    refreshed = after[-1][2]
    assert refreshed is not None and "Spring" not in refreshed[0]


# --------------------------------------------------------------------------- vectors


def _vector(*values: float) -> bytes:
    return np.array(values, dtype="<f4").tobytes()


def test_vectors_store_load_and_drop(filled: Store) -> None:
    assert [(s, summary) for s, summary, _ in filled.missing_vectors("m", 3)] == [
        (1, "The cat sat on the mat"),
        (2, "Running late for the train to Paris"),
        (3, "A dog chased the cat around the garden"),
    ]
    exact = _vector(0.1, -0.0, 1e-40, 3.4e38, -1.5, 2.0 / 3.0)
    assert filled.store_vectors("m", [(1, exact), (2, _vector(1, 2, 3, 4, 5, 6))]) == [1, 2]
    assert filled.store_vectors("m", [(1, _vector(9, 9, 9, 9, 9, 9)), (99, exact)]) == [0, 0]
    # A vector PostgreSQL could not hold is no error where nothing would be stored.
    nan = _vector(float("nan"), 0, 0, 0, 0, 0)
    assert filled.store_vectors("m", [(99, nan), (1, nan)]) == [0, 0]
    assert [s for s, _, _ in filled.missing_vectors("m", 10)] == [3, 4, 5, 6]
    assert filled.store_vectors("other", [(3, _vector(1, 1))]) == [3]
    loaded = filled.load_vectors("m")
    assert loaded == [
        (1, 1, exact, "default", T0 + MIN, T0 + MIN + 1_000_000, "turn", "conv"),
        (
            2,
            2,
            _vector(1, 2, 3, 4, 5, 6),
            "default",
            T0 + 2 * MIN,
            T0 + 2 * MIN + 1_000_000,
            "turn",
            "conv",
        ),
    ]
    assert [v[0] for v in filled.load_vectors("m", after_vseq=1)] == [2]
    assert filled.drop_other_vectors("m") == 1
    assert filled.load_vectors("other") == []
    assert [v[1] for v in filled.load_vectors("m")] == [1, 2]
    # An episode twice in one call: the first of its vectors is stored, numbered in order.
    twice = [(4, _vector(4, 4)), (3, _vector(3, 3)), (4, _vector(5, 5))]
    assert filled.store_vectors("other", twice) == [4, 5, 0]
    assert [(v[1], v[2]) for v in filled.load_vectors("other")] == [
        (4, twice[0][1]),
        (3, twice[1][1]),
    ]


def test_vector_counts_find_the_backlog(store: Store) -> None:
    # What a worker asks at open (is there a backlog) and what status reports, per model.
    assert store.vector_counts("m") == (0, 0)
    filled = [store.add_episode(e) for e in _episodes()]
    assert filled == [1, 2, 3, 4, 5, 6]
    assert store.vector_counts("m") == (6, 0)
    # Out of seq order, as a worker that embeds new episodes first stores them.
    store.store_vectors("m", [(6, _vector(1, 0)), (2, _vector(0, 1)), (3, _vector(1, 1))])
    store.store_vectors("other", [(5, _vector(1, 0))])
    assert store.vector_counts("m") == (6, 3)
    assert store.vector_counts("other") == (6, 1)
    store.store_vectors("m", [(seq, _vector(1, 0)) for seq in (1, 4, 5)])
    assert store.vector_counts("m") == (6, 6)
    # Deleting an episode takes its vector.
    assert store.delete_episode("episode-006") == 6
    assert store.vector_counts("m") == (5, 5)
    assert store.vector_counts("unknown") == (5, 0)


def test_missing_vectors_cut_long_content(store: Store) -> None:
    store.add_episode(episode(1, "é" * 9000, session=None))
    ((seq, _, content),) = store.missing_vectors("m", 5)
    assert (seq, content) == (1, "é" * 8000)


# --------------------------------------------------------------------------- both at once


def test_episodes_match_across_stores(make_store: MakeStore) -> None:
    sqlite, postgres = make_store("sqlite"), make_store("postgres")
    for s in (sqlite, postgres):
        for e in _episodes():
            s.add_episode(e)
        s.store_vectors("m", [(seq, _vector(seq, -seq, 0.5)) for seq in (2, 4, 6)])
        s.delete_episode("episode-003")
    flts = [EpisodeFilter(), EpisodeFilter(namespace="default", kinds=["turn", "note"])]
    for flt in flts:
        for desc in (False, True):
            for seed in (None, 1, 2, 12345):
                assert _every_page(sqlite, flt, desc, seed) == _every_page(
                    postgres, flt, desc, seed
                )
        assert sqlite.episode_concept_ranking(flt, ["c/cat", "c/dog"], 10) == (
            postgres.episode_concept_ranking(flt, ["c/cat", "c/dog"], 10)
        )
        for terms in (["cat"], ["paris", "midnight"], ["the"]):
            assert {s for s, _ in sqlite.episode_text_ranking(flt, terms, 10)} == {
                s for s, _ in postgres.episode_text_ranking(flt, terms, 10)
            }
    assert sqlite.text_changes(0, 1000) == postgres.text_changes(0, 1000)
    assert sqlite.episodes_by_seqs(range(10)) == postgres.episodes_by_seqs(range(10))
    assert sqlite.load_vectors("m") == postgres.load_vectors("m")
    assert sqlite.missing_vectors("m", 10) == postgres.missing_vectors("m", 10)
    assert list(sqlite.export_records()) == list(postgres.export_records())


def test_an_import_leaves_what_one_insert_after_another_leaves(make_store: MakeStore) -> None:
    # PostgreSQL imports a run of episodes in one batch (``plan_inserts`` works out the
    # contexts); SQLite inserts them one by one. The batch lands among stored episodes of the
    # same sessions, with tied start times, long contents, a stored id and a repeated one.
    rng = random.Random(3)

    def made(n: int) -> NewEpisode:
        words = " ".join(
            rng.choice(["cat", "train", "Paris", "midnight", "rain"]) for _ in range(3)
        )
        return episode(
            n,
            f"Note {n} on {words}." + ("x" * 1500 if n % 7 == 0 else ""),
            # Sessionless ones in two namespaces, some within the 30-minute gap, some not.
            namespace=rng.choice(["default", "default", "elsewhere"]),
            session=rng.choice(["a", "b", "c", None, None]),
            start_us=T0 + rng.randrange(15) * 6 * MIN,
            concepts=[(f"c/{rng.randrange(3)}", 0.5, "stable"), ("c/0", 0.9, "stable")],
        )

    stored = [made(n) for n in range(1, 25)]
    imported = [episode_record(made(n)) for n in range(25, 85)]
    imported += [episode_record(stored[3]), imported[5]]
    sqlite, postgres = make_store("sqlite"), make_store("postgres")
    for s in (sqlite, postgres):
        for e in stored:
            s.add_episode(e)
        assert s.import_records(imported)["episode"] == 60
    assert sqlite.text_changes(0, 10_000) == postgres.text_changes(0, 10_000)
    assert sqlite.episodes_by_seqs(range(100)) == postgres.episodes_by_seqs(range(100))
    assert list(sqlite.export_records()) == list(postgres.export_records())


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_an_import_logs_each_episode_once_and_ends_where_one_at_a_time_ends(
    make_store: MakeStore, backend: str
) -> None:
    # A batch's text changes are logged once per episode it touched (its own transaction:
    # no reader sees a state in between); the rows, contexts and each episode's latest
    # document are what adding the episodes one after another leaves.
    rng = random.Random(5)

    def made(n: int) -> NewEpisode:
        return episode(
            n,
            f"Entry {n} about {rng.choice(['kites', 'rain', 'harbours'])}.",
            namespace=rng.choice(["default", "elsewhere"]),
            session=rng.choice(["a", "b", None, None]),
            start_us=T0 + rng.randrange(12) * 5 * MIN,
            concepts=[(f"c/{rng.randrange(4)}", 0.5, "stable")],
        )

    stored = [made(n) for n in range(1, 15)]
    batch = [made(n) for n in range(15, 60)]
    bulk, single = make_store(backend), make_store(backend)
    for s in (bulk, single):
        for e in stored:
            s.add_episode(e)
    before = bulk.latest_text_change()
    assert before == single.latest_text_change()
    assert bulk.import_records([episode_record(e) for e in batch])["episode"] == len(batch)
    for e in batch:
        single.add_episode(e)
    logged = [seq for _, seq, _ in bulk.text_changes(before, 10_000)]
    assert len(logged) == len(set(logged))  # once each
    one_by_one = single.text_changes(before, 10_000)
    assert set(logged) == {seq for _, seq, _ in one_by_one}

    def latest(store: Store) -> dict[int, object]:
        return {seq: doc for _, seq, doc in store.text_changes(0, 10_000)}

    assert latest(bulk) == latest(single)
    assert bulk.episodes_by_seqs(range(70)) == single.episodes_by_seqs(range(70))
