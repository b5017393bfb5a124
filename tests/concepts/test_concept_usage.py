"""concept_usage_summary on both stores: every count, score and co-occurrence equals what the
test computes from the raw episodes it wrote; trends go the way the data was made to go."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import TypedDict

import pytest

import xdb
from tests.concepts.packs import write_pack
from xdb.concepts.concept_usage import mann_kendall_z, npmi

SPEC = "org.test/tiny@1.0.0"
TREE: dict[str, str | None] = {"Root": None, "A": "Root", "A1": "A", "A2": "A", "B": "Root"}
CONCEPTS = [f"{SPEC}::concept/{t}" for t in ("A", "A1", "A2", "B")] + ["candidate/x"]


class Raw(TypedDict):
    """An episode as the test wrote it: its day of March, its kind and its concept scores."""

    day: int
    kind: str
    tags: dict[str, float]


Corpus = tuple[xdb.Database, list[Raw]]


def day(n: int) -> dict[str, str]:
    return {"start_time": f"2025-03-{n:02d}T10:00:00Z", "end_time": f"2025-03-{n:02d}T11:00:00Z"}


@pytest.fixture
def corpus(target: str, tmp_path: Path) -> Iterator[Corpus]:
    rng = random.Random(7)
    episodes: list[Raw] = []
    with xdb.connect(target, embedder="hash") as db:
        db.import_concepts(path=str(write_pack(tmp_path / "pack", tree=TREE)))
        for n in range(80):
            tags = {
                c: round(rng.uniform(0.1, 1.0), 3) for c in rng.sample(CONCEPTS, rng.randint(0, 3))
            }
            kind = "candidate" if "candidate" in next(iter(tags), "") else "stable"
            ep: Raw = {"day": 1 + n % 28, "kind": rng.choice(["reply", "task"]), "tags": tags}
            db.add_episode(
                content=f"e{n}", kind=ep["kind"], time_window=day(ep["day"]),
                concept_tags=[
                    {"concept_id": c, "score": s,
                     "kind": "candidate" if c.startswith("candidate") else kind}
                    for c, s in tags.items()],
            )  # fmt: skip
            episodes.append(ep)
        yield db, episodes


Expected = tuple[int, float | None, dict[str, tuple[int, float]]]


def expected(
    episodes: list[Raw],
    group: set[str],
    kinds: set[str] | None = None,
    days: tuple[int, int] = (1, 31),
) -> Expected:
    scope = [
        e
        for e in episodes
        if (kinds is None or e["kind"] in kinds) and days[0] <= e["day"] <= days[1]
    ]
    mine = [e for e in scope if group & set(e["tags"])]
    scores = [max(s for c, s in e["tags"].items() if c in group) for e in mine]
    co: dict[str, tuple[int, float]] = {}
    for other in {c for e in mine for c in e["tags"]} - group:
        shared = sum(1 for e in mine if other in e["tags"])
        alone = sum(1 for e in scope if other in e["tags"])
        if shared >= 2:
            co[other] = (shared, round(npmi(shared, len(mine), alone, len(scope)), 6))
    return len(mine), (sum(scores) / len(scores) if scores else None), co


@pytest.mark.parametrize("kinds", [None, ["task"]])
def test_counts_scores_and_cooccurrence_equal_the_raw_episodes(
    corpus: Corpus, kinds: list[str] | None
) -> None:
    db, episodes = corpus
    got = db.concept_usage_summary(concept_ids=CONCEPTS, episode_kinds=kinds, top_k=100)
    scope = [e for e in episodes if kinds is None or e["kind"] in kinds]
    assert got.total_episodes == len(scope)
    for summary, cid in zip(got.concept_summaries, CONCEPTS, strict=True):
        count, avg, co = expected(episodes, {cid}, None if kinds is None else set(kinds))
        assert summary.concept_id == cid and summary.episode_count == count
        assert summary.avg_score == pytest.approx(avg, abs=1e-6)
        listed = {
            c.concept_id: (c.episode_count, c.cooccurrence_score)
            for c in summary.top_cooccurring_concepts
        }
        assert listed == co
        scores = [c.cooccurrence_score for c in summary.top_cooccurring_concepts]
        assert scores == sorted(scores, reverse=True)
        assert summary.kind == ("candidate" if cid.startswith("candidate") else "stable")


def test_descendants_and_time_ranges_count_like_the_raw_episodes(corpus: Corpus) -> None:
    db, episodes = corpus
    got = db.concept_usage_summary(
        concept_ids=["A"], include_descendants=True,
        time_range={"start_time": "2025-03-05T00:00:00Z", "end_time": "2025-03-20T23:00:00Z"},
    )  # fmt: skip
    (summary,) = got.concept_summaries
    group = {f"{SPEC}::concept/{t}" for t in ("A", "A1", "A2")}
    count, avg, _ = expected(episodes, group, None, (5, 20))
    assert summary.concept_id == f"{SPEC}::concept/A"
    assert summary.episode_count == count and summary.avg_score == pytest.approx(avg, abs=1e-6)


def test_the_hierarchy_counts_each_concept_and_sums_its_subtree(corpus: Corpus) -> None:
    db, episodes = corpus

    def own(term: str) -> int:
        return sum(1 for e in episodes if f"{SPEC}::concept/{term}" in e["tags"])

    def below(term: str) -> list[str]:
        return [term, *(t for k, p in TREE.items() if p == term for t in below(k))]

    (root,) = db.concepts(pack=SPEC).concepts
    listed = {c.name: c for c in [root, *db.concepts(parent_id="Root").concepts]}
    listed |= {c.name: c for c in db.concepts(parent_id="A").concepts}
    assert set(listed) == set(TREE)
    for term, c in listed.items():
        assert c.episode_count == own(term), term
        assert c.summed_episode_count == sum(own(t) for t in below(term)), term
        got = db.get_concept(concept_id=term).concept
        assert (got.episode_count, got.summed_episode_count) == (own(term), c.summed_episode_count)
    # A sum, not the episodes: one carrying A and A1 counts in both.
    pair = {f"{SPEC}::concept/{t}" for t in ("A", "A1")}
    both = sum(1 for e in episodes if pair <= set(e["tags"]))
    distinct = db.concept_usage_summary(concept_ids=["A"], include_descendants=True)
    assert both and listed["A"].summed_episode_count > distinct.concept_summaries[0].episode_count


def test_trends_follow_the_share_of_episodes(target: str) -> None:
    with xdb.connect(target, embedder="hash") as db:
        for n in range(1, 25):  # "up" in more of each day's episodes, "down" in fewer
            for k in range(4):
                tags = [{"concept_id": "up", "score": 0.5}] if k < n * 4 // 24 else []
                tags += [{"concept_id": "down", "score": 0.5}] if k >= n * 4 // 24 else []
                tags += [{"concept_id": "flat", "score": 0.5}] if k == 0 else []
                db.add_episode(content=f"{n}-{k}", time_window=day(n), concept_tags=tags)
        got = db.concept_usage_summary(concept_ids=["up", "down", "flat"])
        trends = {s.concept_id: s.recent_trend for s in got.concept_summaries}
        assert trends == {"up": "increasing", "down": "decreasing", "flat": "stable"}


def test_activation_statistics_come_from_the_log(target: str) -> None:
    with xdb.connect(target, embedder="hash") as db:
        values = [0.2, 0.9, 0.5]
        for v in values:
            db.record(content="t", event_type="output", concept_activations={"c1": v, "c2": 0.1})
        db.record(content="t", event_type="output")
        (summary,) = db.concept_usage_summary(concept_ids=["c1"]).concept_summaries
        stats = summary.activations
        assert stats is not None and stats.timestep_count == 3
        assert stats.mean == pytest.approx(sum(values) / 3)
        assert stats.max == pytest.approx(0.9) and stats.min == pytest.approx(0.2)


def test_the_statistics_themselves() -> None:
    assert mann_kendall_z([1, 2, 3, 4, 5, 6, 7, 8]) > 1.96
    assert mann_kendall_z([8, 7, 6, 5, 4, 3, 2, 1]) < -1.96
    assert mann_kendall_z([1, 1, 1, 1]) == 0.0 and mann_kendall_z([1, 2]) == 0.0
    assert npmi(10, 10, 10, 100) == pytest.approx(1.0)  # always together
    assert npmi(1, 10, 10, 100) == pytest.approx(0.0, abs=1e-9)  # independent: 10% x 10%
    assert npmi(1, 50, 50, 100) < 0  # less often than chance
    assert math.isclose(npmi(5, 5, 5, 5), 1.0)


def test_counts_stay_exact_through_deletes_repeats_and_namespaces(target: str) -> None:
    """SQLite keeps each concept's count by trigger and reads concept rows without their
    episodes where the filter allows: deleting, repeating a tag in one episode and asking
    for one namespace all count as the raw episodes do."""
    with xdb.connect(target, embedder="hash") as db:
        made = []
        for n in range(8):  # "a" in every episode, "b" in n % 3 == 0, "c" in odd ones
            tags = [{"concept_id": "a", "score": 0.5}]
            if n % 3 == 0:  # said twice: one row, not two
                tags += [{"concept_id": "b", "score": 0.4}, {"concept_id": "b", "score": 0.6}]
            if n % 2:
                tags += [{"concept_id": "c", "score": 0.3}]
            ns = "left" if n < 5 else "right"
            made.append(db.add_episode(content=f"e{n}", namespace=ns, concept_tags=tags))
        db.delete_episode(made[0].episode_id)  # left: 1..4, right: 5..7

        def listed(namespace: str | None) -> dict[str, tuple[int, float]]:
            (s,) = db.concept_usage_summary(
                concept_ids=["c"], namespace=namespace, min_cooccurrence=1
            ).concept_summaries
            found = s.top_cooccurring_concepts
            return {c.concept_id: (c.episode_count, c.cooccurrence_score) for c in found}

        # Everywhere: 7 episodes, c in 1 3 5 7 (4), a in all 7, b in 3 6 (2, one with c).
        assert listed(None) == {"a": (4, round(npmi(4, 4, 7, 7), 6)),
                                "b": (1, round(npmi(1, 4, 2, 7), 6))}  # fmt: skip
        # left: 4 episodes, c in 1 3, b in 3.
        assert listed("left") == {"a": (2, round(npmi(2, 2, 4, 4), 6)),
                                  "b": (1, round(npmi(1, 2, 1, 4), 6))}  # fmt: skip
        (s,) = db.concept_usage_summary(concept_ids=["b"], namespace="right").concept_summaries
        assert s.episode_count == 1 and s.avg_score == pytest.approx(0.6)
