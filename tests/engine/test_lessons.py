"""Lessons, layer 2 scoring and the deterministic layer 3, verdicts and evolution, on both
stores."""

from __future__ import annotations

from typing import Any

import pytest

import xdb
from xdb.engine import scoring

DBCONTEXT: dict[str, Any] = {
    "question": "registering the EF Core DbContext as a singleton in Startup.cs",
    "answer": "register DbContext scoped: a singleton shares one context across requests",
    "framework": "dotnet",
    "domain": "data",
}


# Three similar lessons of one scope: confirmed, they make a principle.
CLUSTER = (
    ("registering DbContext as a singleton", "register it scoped"),
    ("registering HttpClient DbContext singleton lifetime", "use a factory"),
    ("caching a DbContext singleton in a static field", "resolve it per request"),
)


def edit(path: str, text: str) -> dict[str, Any]:
    return {"file_path": path, "old_string": "", "new_string": text}


def check(db: xdb.Database, tool: str, tool_input: dict[str, Any], session: str = "a") -> Any:
    return db.check(session_id=session, tool_name=tool, tool_input=tool_input, cwd="/src/shop")


def test_a_matching_edit_is_warned_once_a_session(db: xdb.Database) -> None:
    made = db.add_lesson(**DBCONTEXT).lesson
    assert (made.tier, made.language, made.collection) == ("T2", "csharp", "qa")
    action = edit("/src/shop/Startup.cs", "services.AddSingleton<DbContext>();")
    first = check(db, "Edit", action)
    assert [w.lesson_id for w in first.warnings] == [made.lesson_id]
    assert first.context is not None and first.context.startswith("Last time registering")
    assert f"[id:{made.short_id} col:qa]" in first.context
    assert check(db, "Edit", action).warnings == []  # never twice in a session
    assert [w.lesson_id for w in check(db, "Edit", action, "b").warnings] == [made.lesson_id]
    assert db.lesson(made.short_id).lesson.hits == 2
    steering = db.query(session_id="claude-a").timesteps
    assert [t.event_type.value for t in steering] == ["steering"]


def test_layer_1_and_the_language_gate(db: xdb.Database) -> None:
    db.add_lesson(**DBCONTEXT)
    assert check(db, "Bash", {"command": "cat Startup.cs"}).read_only
    ts = check(db, "Edit", edit("/src/shop/startup.ts", "services.AddSingleton<DbContext>()"))
    assert not ts.read_only and ts.warnings == []  # a .ts file matches no C# lesson


def test_the_budget_caps_a_session_at_eight(db: xdb.Database) -> None:
    for i in range(12):
        question = f"running migration{i} against production database"
        db.add_lesson(question=question, answer=f"fix {i}", domain="data")
    shown = 0
    for i in range(12):
        got = check(db, "Bash", {"command": f"dotnet ef migration{i} database production"})
        assert len(got.warnings) <= scoring.PER_CALL
        shown += len(got.warnings)
    assert shown == scoring.SESSION_BUDGET


def test_followed_three_times_promotes_and_a_cluster_makes_a_principle(db: xdb.Database) -> None:
    ids = [
        db.add_lesson(question=q, answer=a, framework="dotnet", domain="data").lesson.lesson_id
        for q, a in CLUSTER
    ]
    changes = []
    for lesson_id in ids:
        db.feedback(lesson_id=lesson_id, verdict="followed", source="judge")
        db.feedback(lesson_id=lesson_id, verdict="followed", source="judge")
        done = db.feedback(lesson_id=lesson_id, verdict="followed", source="judge")
        changes.append(done)
    assert all(c.lesson.tier == "T1" for c in changes)
    principle = changes[-1].principle_id
    assert principle is not None
    shown = db.lesson(principle)
    assert shown.lesson.tier == "T0" and shown.lesson.answer.startswith("do this:")
    assert {e.dst for e in shown.edges if e.relation == "GENERALIZES"} == set(ids)
    start = db.session_start(session_id="new", cwd="/src/shop")
    assert start.context is not None and "Principles learned" in start.context
    assert principle in start.lesson_ids


def test_ignored_three_times_archives(db: xdb.Database) -> None:
    made = db.add_lesson(**DBCONTEXT).lesson
    for _ in range(2):
        db.feedback(lesson_id=made.lesson_id, verdict="ignored", source="judge")
    done = db.feedback(lesson_id=made.lesson_id, verdict="ignored", source="judge")
    assert done.lesson.archived and done.changes == ["archived"]
    assert db.lessons().lessons == [] and db.lessons(include_archived=True).total == 1
    action = edit("/src/shop/Startup.cs", "services.AddSingleton<DbContext>();")
    assert check(db, "Edit", action).warnings == []


def test_noise_reasons_narrow_the_scope(db: xdb.Database) -> None:
    made = db.add_lesson(question="calling DbContext.SaveChanges in a loop", answer="batch it",
                         domain="data").lesson  # fmt: skip
    got = db.feedback(lesson_id=made.short_id, verdict="noise", reason="wrong_repo", project="shop")
    assert got.lesson.project_exclude == ["shop"] and not got.lesson.archived
    action = edit("/src/shop/Repo.cs", "db.SaveChanges() in loop over DbContext")
    assert check(db, "Edit", action).warnings == []
    other = db.check(session_id="c", tool_name="Edit", tool_input=action, cwd="/src/crm")
    assert [w.lesson_id for w in other.warnings] == [made.lesson_id]
    lang = db.feedback(lesson_id=made.lesson_id, verdict="noise", reason="wrong_language",
                       language="csharp")  # fmt: skip
    assert lang.lesson.lang_exclude == ["csharp"]
    for _ in range(2):  # wrong_task counts toward supersede (manual: twice the judge's weight)
        last = db.feedback(lesson_id=made.lesson_id, verdict="noise", reason="wrong_task")
    assert last.lesson.superseded and last.lesson.archived


def test_a_contradicting_newer_lesson_supersedes_the_older(db: xdb.Database) -> None:
    old = db.add_lesson(question="creating HttpClient per request in the service", domain="infra",
                        answer="use a singleton HttpClient", language="csharp").lesson  # fmt: skip
    new = db.add_lesson(question="creating HttpClient per request in the service", domain="infra",
                        answer="use IHttpClientFactory", language="csharp")  # fmt: skip
    assert new.superseded == [old.lesson_id]
    assert db.lesson(old.lesson_id).lesson.superseded
    edges = db.lesson(new.lesson.lesson_id).edges
    assert [(e.relation, e.dst) for e in edges] == [("SUPERSEDES", old.lesson_id)]
    got = check(db, "Edit", edit("/src/Api.cs", "new HttpClient() per request in the service"))
    assert got.warnings[0].lesson_id == new.lesson.lesson_id  # the newer ranks higher


def test_a_bad_verdict_or_unknown_lesson_is_a_clear_error(db: xdb.Database) -> None:
    with pytest.raises(xdb.NotFound, match="unknown lesson"):
        db.feedback(lesson_id="nope", verdict="followed")
    with pytest.raises(xdb.InvalidRequest, match="verdict"):
        db.feedback(lesson_id="nope", verdict="liked")  # type: ignore[arg-type]


def test_a_principle_keeps_its_lessons_policy(db: xdb.Database) -> None:
    admin = db.as_caller(xdb.Caller(id="ops", roles=("admin",)))
    admin.set_access_policy(id="private", read_roles=["self"], write_roles=["self"])
    scope: dict[str, Any] = {"framework": "dotnet", "domain": "data", "access_policy_id": "private"}
    ids = [db.add_lesson(question=q, answer=a, **scope).lesson.lesson_id for q, a in CLUSTER]
    made = [db.feedback(lesson_id=i, verdict="followed") for i in ids for _ in range(2)]
    principle = made[-1].principle_id
    assert principle is not None
    state = db.store.learning_object("lesson", principle)
    assert state is not None and state.access_policy_id == "private"
    seq = db.store.episodes_by_ids([principle])[principle].seq
    assert db.store.episode_policies([seq]) == {seq: "private"}


def test_a_warning_is_recorded_under_its_lessons_policy(db: xdb.Database) -> None:
    admin = db.as_caller(xdb.Caller(id="ops", roles=("admin",)))
    admin.set_access_policy(id="private", read_roles=["self"], write_roles=["self"])
    db.add_lesson(**{**DBCONTEXT, "access_policy_id": "private"})
    assert check(
        db, "Edit", edit("/src/shop/Startup.cs", "AddSingleton<DbContext>()"), "w"
    ).warnings
    mine = db.recent(session_id="claude-w").timesteps
    assert [t.event_type for t in mine] == ["steering"] and "DbContext" in mine[0].content
    partner = db.as_caller(xdb.Caller(id="acme", roles=("partner",)))
    assert partner.recent(session_id="claude-w").timesteps == []
