"""A lesson told in prose warns on its known mistake made again in other names, stays quiet
on the safe variant, and the judge reads the next call by the same detector (both stores)."""

from __future__ import annotations

from typing import Any

import xdb
from xdb.engine import triggers
from xdb.engine.calls import parse_call
from xdb.engine.trigger_match import match, seen

MUTABLE = {
    "question": "a mutable default argument leaked state between calls of the cart helper",
    "answer": "default to None and build the list inside the function",
}
FORCE = {
    "question": "force-pushing over the shared release branch erased a teammate's commits",
    "answer": "fetch first and push with a lease",
}


def _write(path: str, text: str) -> dict[str, Any]:
    return {"file_path": path, "content": text}


def _said(lesson: dict[str, str], tool: str, tool_input: dict[str, Any]) -> str:
    trigger = triggers.derive(lesson["question"], lesson["answer"])
    return match(
        trigger, seen(parse_call(tool, tool_input, "/w/shop")), 1.0, 1.0, lesson["question"]
    )


def test_a_prose_lesson_names_its_known_mistake() -> None:
    assert "py-mutable-default" in triggers.derive(MUTABLE["question"], MUTABLE["answer"]).known
    assert "git-force-push" in triggers.derive(FORCE["question"], FORCE["answer"]).known
    # In other files, names and branches than any the lesson wrote:
    repeat = _write(
        "/w/etl/lib/cache.py", "def remember(key, value, seen={}):\n    seen[key] = value"
    )
    assert _said(MUTABLE, "Write", repeat) == triggers.HIT
    safe = _write(
        "/w/etl/lib/cache.py", "def remember(key, value, seen=None):\n    seen = seen or {}"
    )
    assert _said(MUTABLE, "Write", safe) != triggers.HIT
    assert _said(FORCE, "Bash", {"command": "git push -f origin hotfix/2.3"}) == triggers.HIT
    lease = {"command": "git push --force-with-lease origin hotfix/2.3"}
    assert _said(FORCE, "Bash", lease) == triggers.SAFE
    # A Go file is not read by a Python detector: the lesson's words decide there.
    go = _write("/w/api/main.go", "func remember(seen map[string]int) {}")
    assert _said(MUTABLE, "Write", go) != triggers.HIT


def test_a_lesson_learned_on_a_call_keeps_only_the_mistakes_that_call_makes() -> None:
    failing = {"tool_name": "Bash", "tool_input": {"command": "git push --force origin main"}}
    learned = triggers.derive(FORCE["question"], FORCE["answer"], example_call=failing)
    assert "git-force-push" in learned.known
    other = {"tool_name": "Bash", "tool_input": {"command": "git status"}}
    assert "git-force-push" not in triggers.derive(FORCE["question"], "", example_call=other).known


def test_a_known_mistake_warns_and_is_judged(db: xdb.Database) -> None:
    made = db.add_lesson(
        question=MUTABLE["question"], answer=MUTABLE["answer"], language="python"
    ).lesson
    repeat = _write("/w/shop/app/batch.py", "def collect(rows, out=[]):\n    out.extend(rows)")
    shown = db.check(session_id="k", tool_name="Write", tool_input=repeat, cwd="/w/shop")
    assert [w.lesson_id for w in shown.warnings] == [made.lesson_id]
    db.judge(session_id="k", tool_name="Write", tool_input=repeat, cwd="/w/shop")  # its own call
    fixed = _write("/w/shop/app/batch.py", "def collect(rows, out=None):\n    out = out or []")
    assert (
        db.check(session_id="k2", tool_name="Write", tool_input=fixed, cwd="/w/shop").warnings == []
    )
    done = db.judge(session_id="k", tool_name="Write", tool_input=fixed, cwd="/w/shop")
    assert [(v.lesson_id, v.verdict) for v in done.verdicts] == [(made.lesson_id, "followed")]
