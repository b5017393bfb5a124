"""The judge's verdicts on shown warnings, by its deterministic rules, and as a worker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import xdb
from xdb.engine.judge import WINDOW, Pending, verdict
from xdb.engine.judge_shapes import call_ops

LESSON: dict[str, Any] = {
    "question": "registering the EF Core DbContext with AddSingleton in Startup.cs",
    "answer": "use AddScoped for DbContext",
    "framework": "dotnet",
    "domain": "data",
}
STARTUP = "/src/shop/Startup.cs"
WARNED = {"file_path": STARTUP, "new_string": "services.AddSingleton<DbContext>();"}
PENDING = Pending(
    "l1", LESSON["question"], LESSON["answer"], "csharp", shown_at=3, tool="Edit", tool_input=WARNED
)


def _on(path: str, text: str) -> list[Any]:
    return call_ops("Edit", {"file_path": path, "new_string": text})


@pytest.mark.parametrize(
    ("call", "path", "text", "language", "expected"),
    [
        (3, STARTUP, "services.AddSingleton<DbContext>()", "csharp", None),  # its own call
        (4, STARTUP, "services.AddScoped<DbContext>()", "csharp", ("followed", None)),
        (4, STARTUP, "services.AddSingleton<ShopDbContext>()", "csharp", ("ignored", None)),
        (4, "/src/shop/README.md", "renamed a variable", "csharp", None),
        (3 + WINDOW, "/src/shop/README.md", "renamed a variable", "csharp", ("unclear", None)),
        (
            4,
            "/src/web/app.ts",
            "AddScoped in app.ts",
            "typescript",
            ("irrelevant", "wrong_language"),
        ),
    ],
)
def test_the_rules(call: int, path: str, text: str, language: str | None, expected: Any) -> None:
    assert verdict(PENDING, call, _on(path, text), language) == expected


def test_a_call_in_another_language_after_one_in_the_lessons_decides_nothing() -> None:
    on_csharp = Pending("l1", LESSON["question"], LESSON["answer"], "csharp", shown_at=3,
                        shown_on_language="csharp")  # fmt: skip
    later = _on("/src/web/app.ts", "AddScoped in app.ts")
    assert verdict(on_csharp, 4, later, "typescript") is None
    assert verdict(on_csharp, 3 + WINDOW, later, "typescript") == ("unclear", None)


HELM = Pending(
    "l2",
    "a helm upgrade that failed halfway left the release in a failed state",
    "upgrade with --atomic and a --timeout so a failed release rolls back by itself",
    None,
    shown_at=1,
    tool="Bash",
    tool_input={"command": "helm upgrade api charts/api -n prod"},
)


def _bash(command: str) -> list[Any]:
    return call_ops("Bash", {"command": command})


def test_the_fixs_flag_is_followed() -> None:
    fixed = _bash("helm upgrade --install api charts/api -n prod --atomic --timeout 5m")
    assert verdict(HELM, 2, fixed, None) == ("followed", None)


def test_a_repeat_with_a_comment_saying_run_is_ignored() -> None:
    # The comment names the fix's words (and "run"): a comment is not what the call does.
    again = _bash("helm upgrade web ./charts/web -n prod  # run with --atomic next time")
    assert verdict(HELM, 2, again, None) == ("ignored", None)
    said = _bash('echo "helm upgrade --atomic" && helm upgrade web ./charts/web')
    assert verdict(HELM, 2, said, None) == ("ignored", None)  # nor is an echo's text


def test_words_in_both_question_and_answer_decide_nothing() -> None:
    # "rsync", "delete", "run", "server" are in both: doing what the answer says is FOLLOWED.
    lesson = Pending(
        "l3",
        "rsync --delete run against the server removed the uploads on the server",
        "run rsync --delete with --dry-run first against the server",
        None,
        shown_at=1,
        tool="Bash",
        tool_input={"command": "rsync -av --delete dist/ web1:/var/www/"},
    )
    fixed = _bash("rsync -avn --delete dist/ web1:/var/www/")
    assert verdict(lesson, 2, fixed, None) == ("followed", None)
    again = _bash("rsync -a --delete build/ web2:/srv/site")
    assert verdict(lesson, 2, again, None) == ("ignored", None)


def test_a_false_warning_is_never_followed() -> None:
    # A lesson about helm shown on a git call: whatever comes next, it was irrelevant.
    shown_on_git = Pending(HELM.lesson_id, HELM.question, HELM.answer, None, shown_at=1,
                           tool="Bash", tool_input={"command": "git push origin main"})  # fmt: skip
    fixed = _bash("helm upgrade api charts/api --atomic --timeout 5m")
    assert verdict(shown_on_git, 2, fixed, None) == ("irrelevant", "wrong_task")
    # Shown on the safe variant itself: nothing to follow.
    safe = Pending(HELM.lesson_id, HELM.question, HELM.answer, None, shown_at=1, tool="Bash",
                   tool_input={"command": "helm upgrade api charts/api --atomic"})  # fmt: skip
    assert verdict(safe, 2, fixed, None) == ("unclear", None)


def _edit(text: str) -> dict[str, Any]:
    return {"file_path": "/src/shop/Startup.cs", "new_string": text}


def test_a_followed_warning_counts_and_three_promote(db: xdb.Database) -> None:
    made = db.add_lesson(**LESSON).lesson
    for session in ("a", "b", "c"):
        shown = db.check(session_id=session, tool_name="Edit", cwd="/src/shop",
                         tool_input=_edit("services.AddSingleton<DbContext>();"))  # fmt: skip
        assert [w.lesson_id for w in shown.warnings] == [made.lesson_id]
        same = db.judge(session_id=session, tool_name="Edit",
                        tool_input=_edit("services.AddSingleton<DbContext>();"))  # fmt: skip
        assert same.verdicts == [] and same.pending == 1  # the warned call itself
        fixed = db.judge(session_id=session, tool_name="Edit",
                         tool_input=_edit("services.AddScoped<DbContext>();"))  # fmt: skip
        assert [(v.lesson_id, v.verdict) for v in fixed.verdicts] == [(made.lesson_id, "followed")]
    assert db.lesson(made.lesson_id).lesson.tier == "T1"


def test_the_worker_records_a_verdict(db: xdb.Database, target: str, tmp_path: Path) -> None:
    if target.startswith("postgresql"):
        pytest.skip("the worker opens XDB_DB, a file path; the operation is tested on both")
    made = db.add_lesson(**LESSON).lesson
    db.check(session_id="w", tool_name="Edit", cwd="/src/shop",
             tool_input=_edit("services.AddSingleton<DbContext>();"))  # fmt: skip
    db.judge(session_id="w", tool_name="Edit", tool_input=_edit("x"))
    request = {"agent": "claude", "session_id": "w", "tool_name": "Edit",
               "tool_input": _edit("services.AddSingleton<DbContext>() anyway")}  # fmt: skip
    env = {**os.environ, "XDB_DB": target, "XDB_EMBEDDER": "hash",
           "XDB_ENGINE_URL": "http://127.0.0.1:9"}  # fmt: skip
    done = subprocess.run([sys.executable, "-m", "xdb.interfaces.hook_worker"],
                          input=json.dumps({"op": "judge", "request": request}), env=env,
                          capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "")
    assert db.lesson(made.lesson_id).lesson.ignores == 1


def test_parallel_calls_are_judged_by_their_ids(db: xdb.Database) -> None:
    made = db.add_lesson(**LESSON).lesson
    other = {"file_path": "/src/shop/README.md", "new_string": "docs"}
    warned = _edit("services.AddSingleton<DbContext>();")
    # Pre A, Pre B (warned), Post A, Post B: B's warning came too late for B itself.
    assert not db.check(session_id="p", tool_name="Edit", tool_input=other,
                        tool_use_id="A").warnings  # fmt: skip
    assert db.check(session_id="p", tool_name="Edit", tool_input=warned,
                    tool_use_id="B").warnings  # fmt: skip
    assert (
        db.judge(session_id="p", tool_name="Edit", tool_input=other, tool_use_id="A").verdicts == []
    )
    own = db.judge(session_id="p", tool_name="Edit", tool_input=warned, tool_use_id="B")
    assert own.verdicts == [] and own.pending == 1  # not "ignored" on its own call
    fixed = db.judge(session_id="p", tool_name="Edit", tool_use_id="C",
                     tool_input=_edit("services.AddScoped<DbContext>();"))  # fmt: skip
    assert [(v.lesson_id, v.verdict) for v in fixed.verdicts] == [(made.lesson_id, "followed")]


def test_a_warning_whose_lesson_is_gone_is_dropped(db: xdb.Database) -> None:
    db.add_lesson(**LESSON)
    db.check(session_id="g", tool_name="Edit", tool_input=_edit("AddSingleton<DbContext>()"))
    db.judge(session_id="g", tool_name="Edit", tool_input=_edit("AddSingleton<DbContext>()"))
    key = "self:claude:g"
    session = db.store.learning_object("engine_session", key)
    assert session is not None and len(session.body["pending"]) == 1
    ghost = {**session.body["pending"][0], "lesson_id": "episode-gone", "call_id": "x"}
    session.body = {**session.body, "pending": [*session.body["pending"], ghost]}
    db.store.put_learning_object(session)
    done = db.judge(session_id="g", tool_name="Edit", tool_input=_edit("AddScoped<DbContext>()"))
    assert [v.verdict for v in done.verdicts] == ["followed"] and done.pending == 0


def test_a_false_warning_raises_no_confidence(db: xdb.Database) -> None:
    made = db.add_lesson(question=HELM.question, answer=HELM.answer, domain="infrastructure",
                         tier="T2").lesson  # fmt: skip
    warned = {"command": "helm upgrade api charts/api -n prod"}
    assert db.check(session_id="f", tool_name="Bash", tool_input=warned).warnings
    db.judge(session_id="f", tool_name="Bash", tool_input=warned)  # the warned call itself
    # Make it a false warning: the call it was shown for becomes one of another program.
    state = db.store.learning_object("engine_session", "self:claude:f")
    assert state is not None
    entry = {**state.body["pending"][0], "tool_input": {"command": "git push origin main"}}
    state.body = {**state.body, "pending": [entry]}
    db.store.put_learning_object(state)
    done = db.judge(session_id="f", tool_name="Bash",
                    tool_input={"command": "helm upgrade api charts/api --atomic"})  # fmt: skip
    assert [v.verdict for v in done.verdicts] == ["irrelevant"]
    after = db.lesson(made.lesson_id).lesson
    assert after.confidence <= made.confidence and after.follows == 0


@pytest.mark.parametrize(
    ("later", "expected"),
    [
        # The lesson's form again, in another spelling and on another group: the warning
        # went unheeded, though the call shares none of the warned call's arguments.
        ("az group delete -n rg-data-qa -y --no-wait", "ignored"),
        # The form its answer advises: heeded.
        ("az resource list --resource-group rg-data-qa", "followed"),
    ],
)
def test_the_lessons_own_form_decides_after_a_warning_shown_on_it(
    db: xdb.Database, later: str, expected: str
) -> None:
    db.add_lesson(question="deleting a whole resource group with --yes took the key vault too",
                  answer="list what the group holds (az resource list -g) first",
                  domain="infrastructure")  # fmt: skip
    warned = {"command": "az group delete --name rg-shop-dev --yes"}
    assert db.check(session_id="o", tool_name="Bash", tool_input=warned).warnings
    db.judge(session_id="o", tool_name="Bash", tool_input=warned)
    done = db.judge(session_id="o", tool_name="Bash", tool_input={"command": later})
    assert [v.verdict for v in done.verdicts] == [expected]


def _judged_after(db: xdb.Database, session: str, warned: str, later: str) -> list[str]:
    shown = db.check(session_id=session, tool_name="Bash", tool_input={"command": warned})
    assert shown.warnings
    db.judge(session_id=session, tool_name="Bash", tool_input={"command": warned})
    done = db.judge(session_id=session, tool_name="Bash", tool_input={"command": later})
    return [v.verdict for v in done.verdicts]


def test_the_judge_reads_a_lessons_known_mistakes_as_the_check_does(db: xdb.Database) -> None:
    """A use of the program the lesson's form does not name is not its mistake made again
    (``FORM_DECIDES``), and after a lesson learned on a call that made two known mistakes,
    a call doing one of them the safe way heeded it (``KNOWN_ALL``): the judge says what the
    check would."""
    db.add_lesson(
        question="kubectl delete ran against the production cluster because the current"
        " context was prod",
        answer="name the cluster and namespace on every command: --context staging -n shop",
        domain="infrastructure",
    )
    after = _judged_after(db, "w", "kubectl delete pod web-1", "kubectl apply -f k8s/in.yaml -n x")
    assert "ignored" not in after
    db.add_lesson(
        question="`kubectl delete deployment api` failed: Error from server (Forbidden):"
        ' User "dev" cannot delete resource in namespace "default"',
        answer="it passed as `kubectl --context staging -n shop delete deployment api` (added"
        " `--context=staging`, `--namespace=shop`)",
        example_call={"tool_name": "Bash", "tool_input": {"command": "kubectl delete deploy api"}},
        fix_call={"tool_name": "Bash",
                  "tool_input": {"command": "kubectl --context staging -n shop delete deploy api"}},
    )  # fmt: skip
    heeded = _judged_after(
        db, "c", "kubectl delete deployment web", "kubectl delete deployment web --context staging"
    )
    assert heeded and "ignored" not in heeded
