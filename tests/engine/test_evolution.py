"""Evolution as seed 003 says (issue 33): a raw (T3) lesson becomes T2 on its first
confirmed follow; session start gives a principle instead of the behaviours it generalizes
(memory shrinks); on both stores."""

from __future__ import annotations

import xdb
from xdb.engine import evolution

# Three similar lessons of one scope: confirmed three times each, they make a principle.
CLUSTER = (
    ("registering DbContext as a singleton", "register it scoped"),
    ("registering HttpClient DbContext singleton lifetime", "use a factory"),
    ("caching a DbContext singleton in a static field", "resolve it per request"),
)


def test_a_raw_lesson_becomes_qa_on_its_first_follow() -> None:
    state = evolution.new_state("T3", 0)
    assert evolution.apply(state, "followed", None, None, None, 1, 1) == ["promoted to T2 (qa)"]
    assert state["tier"] == "T2" and state["follows"] == 1
    # The follow that made it T2 counts toward T1: two more make three.
    evolution.apply(state, "followed", None, None, None, 1, 2)
    assert evolution.apply(state, "followed", None, None, None, 1, 3) == [
        "promoted to T1 (behavioral)"
    ]


def test_only_a_follow_promotes_a_raw_lesson() -> None:
    for word, reason in (("unclear", None), ("irrelevant", "wrong_task"), ("ignored", None)):
        state = evolution.new_state("T3", 0)
        evolution.apply(state, word, reason, None, None, 1, 1)
        assert state["tier"] == "T3" and state["confidence"] <= 0.5


def test_an_extracted_lesson_followed_is_kept_as_qa(db: xdb.Database) -> None:
    made = db.add_lesson(question="cargo publish shipped a crate without its README",
                         answer="run cargo publish --dry-run first").lesson  # fmt: skip
    assert made.tier == "T3"
    done = db.feedback(lesson_id=made.lesson_id, verdict="followed", source="judge")
    assert done.lesson.tier == "T2" and done.changes == ["promoted to T2 (qa)"]
    assert db.lessons(tier="T2").total == 1


def test_session_start_gives_the_principle_not_its_lessons(db: xdb.Database) -> None:
    ids = [
        db.add_lesson(question=q, answer=a, framework="dotnet", domain="data").lesson.lesson_id
        for q, a in CLUSTER
    ]
    other = db.add_lesson(question="awaiting inside a lock in C#", answer="use SemaphoreSlim",
                          framework="dotnet", domain="data").lesson.lesson_id  # fmt: skip
    principle = None
    for lesson_id in [*ids, other]:
        for _ in range(3):
            done = db.feedback(lesson_id=lesson_id, verdict="followed", source="judge")
            principle = done.principle_id or principle
    assert principle is not None
    start = db.session_start(session_id="new", cwd="/src/shop")
    assert start.context is not None and "Principles learned" in start.context
    # The principle stands for its three lessons; the behaviour it does not cover stays.
    assert principle in start.lesson_ids and other in start.lesson_ids
    assert not set(ids) & set(start.lesson_ids)
    for question, _ in CLUSTER:
        assert f"- {question}:" not in start.context
