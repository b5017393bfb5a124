"""Fill a database with the demo: the bundled concept pack and four agent sessions
(``xdb.demo.script``) with their tags, comments, episodes, lessons, a bud and a dataset.

Everything goes through the public operations, as an agent and the people around it would
write it. The content, the ticks and the activations are the same on every run (the noise
is seeded); ids are new ones, and times are relative to the day it runs (the sessions of the
past week; the engine's warning to a fifth session is given as it runs). ``state`` tells a
database the demo may fill (nothing in it) from one it filled before and from any other,
which it leaves alone.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from xdb.core import Database
from xdb.demo import BUD, PACK, SEED
from xdb.demo.sample_pack import SPEC_ID
from xdb.demo.script import DEPLOY, FLAKY, REFUND, RESEARCH, SESSIONS, Session
from xdb.paths import at_terminal

State = Literal["empty", "demo", "unfinished", "other"]


@dataclass(frozen=True)
class Filled:
    """What the demo wrote."""

    timesteps: int
    episodes: int
    lessons: int
    dataset_id: str

    def summary(self) -> str:
        names = ", ".join(s.id for s in SESSIONS)
        return (
            f"{self.timesteps} timesteps in {len(SESSIONS)} sessions ({names}), "
            f"{self.episodes} episodes, {self.lessons} lessons, the bud {BUD!r} and the "
            f"dataset {self.dataset_id}"
        )


def state(db: Database) -> State:
    """``empty``: nothing recorded, tagged or loaded; ``demo``: what the demo wrote (and
    perhaps more since); ``unfinished``: a demo that stopped half way; ``other``: a database
    the demo has nothing to do with."""
    status = db.status()
    packs = {p.spec_id for p in db.concept_packs().packs}
    if (
        status.experience_stats.total_timesteps == 0
        and status.embedding.episodes == 0
        and status.tag_stats.total_tags == 0
        and not packs
    ):
        return "empty"
    if packs != {SPEC_ID}:
        return "other"
    # The demo's last write is its dataset: a database with the pack but not the dataset
    # stopped half way.
    return "demo" if db.datasets(concept_id="Deception").datasets else "unfinished"


def fill(db: Database, today: datetime | None = None) -> Filled:
    """Write the demo into ``db`` (an empty one: see ``state``). ``today``: the day the
    sessions are counted back from (default: today, UTC)."""
    noise = random.Random(SEED)
    start = (today or datetime.now(UTC)).replace(hour=0, minute=0, second=0, microsecond=0)
    start -= timedelta(days=6)
    with at_terminal():  # the bundled pack is read where it is, outside the data root
        db.import_concepts(path=str(PACK))
    timesteps = 0
    for session in SESSIONS:
        timesteps += _record(db, session, start, noise)
    episodes = _episodes(db, start)
    lessons = _lessons(db)
    _annotate(db)
    dataset = _learning(db)
    return Filled(timesteps=timesteps, episodes=episodes, lessons=lessons, dataset_id=dataset)


def _activations(
    concepts: dict[str, float], background: list[str], noise: random.Random
) -> dict[str, float]:
    """What a probe reads: the step's concepts, jittered, and faintly two others of its
    session's."""
    read = {c: round(min(1.0, max(0.0, v + noise.uniform(-0.04, 0.04))), 3)
            for c, v in concepts.items()}  # fmt: skip
    for concept in noise.sample(background, 2):
        read.setdefault(concept, round(noise.uniform(0.02, 0.12), 3))
    return read


def _record(db: Database, session: Session, start: datetime, noise: random.Random) -> int:
    """Record one session's steps; the number of timesteps written."""
    at = start + timedelta(days=session.day, hours=session.hour)
    rows: list[dict[str, Any]] = []
    background = sorted({c for step in session.steps for c in step.concepts})
    for step in session.steps:
        at += timedelta(seconds=step.seconds)
        event = f"{session.id}-{step.event}" if step.event else None
        base = {"session_id": session.id, "event_type": step.event_type, "event_id": event}
        if not step.tokens:
            rows.append({**base, "content": step.content, "timestamp": at,
                         "concept_activations": _activations(step.concepts, background, noise),
                         "event_start": step.start, "event_end": step.end})  # fmt: skip
            continue
        words = step.content.split(" ")
        pieces = [w if i == 0 else " " + w for i, w in enumerate(words)]
        for i, piece in enumerate(pieces):
            rows.append({**base, "content": piece, "token_id": 1000 + i,
                         "timestamp": at + timedelta(milliseconds=40 * i),
                         "concept_activations": _activations(step.concepts, background, noise),
                         "event_start": step.start and i == 0,
                         "event_end": step.end and i == len(pieces) - 1})  # fmt: skip
    db.record_batch(timesteps=rows)
    return len(rows)


def _window(session: Session, start: datetime) -> dict[str, datetime]:
    begin = start + timedelta(days=session.day, hours=session.hour)
    seconds = sum(step.seconds for step in session.steps)
    return {"start_time": begin, "end_time": begin + timedelta(seconds=seconds + 5)}


# What each session came to, written as the agent's own summary of it.
SUMMARIES = (
    (DEPLOY, "incident", "The deploy failed: the migration locked the users table and 312 "
     "checkouts failed. Rolled back, rebuilt the index with CREATE INDEX CONCURRENTLY, "
     "deployed again without a lock.",
     {"ErrorAnalysis": 0.9, "RiskAssessmentProcess": 0.8, "MetacognitiveCautionState": 0.6}),
    (REFUND, "incident", "Told a customer their refund was sent while it was pending "
     "approval; corrected it after the monitor's steer, escalated, and refused to mark it "
     "as sent.", {"Deception": 0.86, "HonestDefaults": 0.7, "RefusalState": 0.5}),
    (RESEARCH, "correction", "Claimed the Great Wall is visible from the Moon, then checked "
     "NASA's answer and corrected it: at about 6 m wide it is not.",
     {"Hallucination": 0.7, "BeliefRevision": 0.8, "SourceVerification": 0.7}),
    (FLAKY, "task", "Fixed a flaky checkout test: it compared against datetime.now(); it now "
     "runs on a frozen clock and passes 50 runs in a row.",
     {"ProgramDebuggingProcess": 0.8, "ProgramTestingProcess": 0.7}),
)  # fmt: skip


def _episodes(db: Database, start: datetime) -> int:
    """One summary episode a session (beside those its closed events made), and the graph:
    the decision the deploy's incident led to."""
    made: dict[str, str] = {}
    for session, kind, text, concepts in SUMMARIES:
        made[session.id] = db.add_episode(
            content=text,
            kind=kind,
            namespace=session.namespace,
            session_id=session.id,
            time_window=_window(session, start),
            concept_tags=[{"concept_id": c, "score": s} for c, s in concepts.items()],
            metadata={"title": session.title},
        ).episode_id
    decision = db.add_node(node_type="Decision", name="roll back the migration",
                           namespace="shop").node_id  # fmt: skip
    db.link(src=decision, dst=made[DEPLOY.id], note="checkouts were failing")
    tool = db.add_node(node_type="Tool", name="alembic", namespace="shop").node_id
    db.link(src=decision, dst=tool, relation="CONTAINS", note="alembic downgrade -1")
    total: int = db.status().embedding.episodes
    return total


LESSONS = (
    {
        "question": "running a migration that builds an index on a large table inside a "
        "transaction (alembic upgrade head): it locked the users table",
        "answer": "build the index with CREATE INDEX CONCURRENTLY outside the transaction "
        "(op.create_index(..., postgresql_concurrently=True)) and check the table's size first",
        "domain": "data",
        "language": "python",
        "framework": "alembic",
        "project": "shop",
        "example_call": {"tool_name": "Bash", "tool_input": {"command": "alembic upgrade head"}},
    },
    {
        "question": "a test that asserts against datetime.now() fails when the clock moves "
        "between two reads",
        "answer": "freeze the clock in the test (freezegun or time-machine) instead of "
        "retrying it or sleeping",
        "domain": "testing",
        "language": "python",
        "framework": "pytest",
        "project": "shop",
    },
    {
        "question": "telling a customer a refund was sent before the order tool says so",
        "answer": "quote the tool's status as it is (pending_approval is not sent) and say "
        "what happens next",
        "domain": "support",
        "project": "support",
    },
)


def _lessons(db: Database) -> int:
    """The lessons the sessions taught, and the first warning one gave: another agent's
    session, about to run the same migration command, is warned."""
    for lesson in LESSONS:
        db.add_lesson(**lesson)
    db.check(agent="claude", session_id="next-migration", tool_name="Bash",
             tool_input={"command": "alembic upgrade head"})  # fmt: skip
    return len(LESSONS)


def _annotate(db: Database) -> None:
    """Tags, comments and the bud, as the agent and its reviewers left them."""
    db.tag(tag_name_or_id="incident", session_id=DEPLOY.id, event_id="deploy-c1",
           note="312 checkouts failed")  # fmt: skip
    db.create_tag(name="users-table", tag_type="entity", entity_type="thing",
                  description="the shop's users table (14 M rows)")  # fmt: skip
    db.tag(tag_name_or_id="users-table", session_id=DEPLOY.id, event_id="deploy-c1")
    db.tag(tag_name_or_id="mistake", timestep_id="ts-deploy-2",
           note="no maintenance window, no look at the table's size")  # fmt: skip
    db.comment(content="Should have checked the table's size before migrating: 14 M rows.",
               session_id=DEPLOY.id, tick_range={"start": 2, "end": 4})  # fmt: skip
    db.tag(tag_name_or_id="mistake", timestep_id="ts-refund-4",
           note="the tool said pending_approval")  # fmt: skip
    db.comment(content="Said the refund was sent; the order tool said pending_approval.",
               timestep_id="ts-refund-4")  # fmt: skip
    db.comment(content="Good recovery: apologised, quoted the tool, escalated.",
               timestep_id="ts-refund-6")  # fmt: skip
    db.tag(tag_name_or_id="interesting", timestep_id="ts-research-5",
           note="corrected itself after checking a source")  # fmt: skip
    db.tag(tag_name_or_id="interesting", timestep_id="ts-flaky-test-4")
    db.comment(content="The classic flaky test: two reads of the clock.",
               timestep_id="ts-flaky-test-4")  # fmt: skip
    # A candidate concept the agent noticed: answers that claim more than the evidence.
    db.create_tag(
        name=BUD,
        tag_type="bud",
        description="Answers that claim more than the evidence shows",
        relations={"EpistemicOverconfidence": "overlaps", "Deception": "overlaps"},
    )
    db.tag(tag_name_or_id=BUD, timestep_id="ts-refund-4", note="'was sent on Monday'")
    db.tag(tag_name_or_id=BUD, timestep_id="ts-research-2", note="'the only structure'")
    db.tag(tag_name_or_id=BUD, timestep_id="ts-deploy-2", note="'no need for a window'")


def _reply_episode(db: Database, session: str, words: str) -> str:
    found = db.search_episodes(text_query=words, session_id=session, episode_kinds=["reply"])
    return found.episodes[0].episode_id


def _learning(db: Database) -> str:
    """Labels for Deception (a lie and its correction) and the dataset built from them."""
    lie = _reply_episode(db, REFUND.id, "refund was sent on Monday")
    fixed = _reply_episode(db, REFUND.id, "still pending approval escalated")
    db.add_exemplar(concept_id="Deception", label="positive", episode_id=lie,
                    label_source="human", notes="said sent; the tool said pending")  # fmt: skip
    db.add_exemplar(concept_id="Deception", label="negative", episode_id=fixed,
                    label_source="human", notes="the honest correction")  # fmt: skip
    made = db.build_dataset(target_concept_id="Deception", max_positive=20, max_negative=20,
                            sampling={"balance": "balanced", "random_seed": SEED})  # fmt: skip
    dataset_id: str = made.dataset_id
    return dataset_id
