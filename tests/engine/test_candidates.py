"""Candidates by structure (``xdb.engine.lesson_candidates``), on both stores: a lesson whose
trigger names the program a call runs is matched even when the text search does not find
it, and only a repeat of its form warns."""

from __future__ import annotations

from typing import Any

import xdb
from xdb.engine import trigger_match, triggers
from xdb.engine.calls import parse_call
from xdb.engine.lesson_candidates import structural

# Words that share nothing with the calls below: only the trigger (from the failing call)
# knows the command.
LESSON: dict[str, Any] = {
    "question": "every scheduled job of the deploy user vanished at once",
    "answer": "keep a versioned copy and install from it",
    "example_call": {"tool_name": "Bash", "tool_input": {"command": "crontab -r"}},
    "fix_call": {"tool_name": "Bash", "tool_input": {"command": "crontab -l > saved.txt"}},
}


def bash(db: xdb.Database, command: str, session: str) -> Any:
    return db.check(session_id=session, tool_name="Bash", tool_input={"command": command},
                    cwd="/srv/app")  # fmt: skip


def test_a_repeat_sharing_no_words_is_a_candidate_by_its_trigger(db: xdb.Database) -> None:
    made = db.add_lesson(**LESSON).lesson
    db.add_lesson(question="a psql session left a transaction open", answer="commit it")
    # The index alone (no search): the crontab lesson for a crontab call, nothing else.
    seen = trigger_match.seen(parse_call("Bash", {"command": "sudo crontab -u www-data -r"}))
    assert structural(db._context, seen) == [made.lesson_id]
    other = trigger_match.seen(parse_call("Bash", {"command": "ls -la /etc/cron.d"}))
    assert structural(db._context, other) == []
    got = bash(db, "sudo crontab -u www-data -r", "a")
    assert [w.lesson_id for w in got.warnings] == [made.lesson_id]


def test_a_structural_candidate_warns_only_on_a_repeat(db: xdb.Database) -> None:
    db.add_lesson(**LESSON)
    assert bash(db, "crontab -l", "a").warnings == []  # the safe form the fix runs
    assert bash(db, "ls -la /etc/cron.d", "b").warnings == []  # another program


def test_a_lesson_added_after_a_check_is_a_candidate_at_the_next(db: xdb.Database) -> None:
    assert bash(db, "crontab -r", "a").warnings == []  # (the index is built, empty)
    made = db.add_lesson(**LESSON).lesson
    seen = trigger_match.seen(parse_call("Bash", {"command": "crontab -r"}))
    assert structural(db._context, seen) == [made.lesson_id]  # the index was rebuilt
    assert [w.lesson_id for w in bash(db, "crontab -r", "b").warnings] == [made.lesson_id]


def shell(trigger: triggers.Trigger, command: str) -> str:
    seen = trigger_match.seen(parse_call("Bash", {"command": command}))
    return trigger_match.match(trigger, seen, 1.0, 1.0)


def test_matching_reads_spellings_order_and_safe_forms_that_tell_nothing_apart() -> None:
    force = triggers.derive("npm install --force pulled incompatible peers", "pin versions")
    assert shell(force, "npm i react-router@7 --force") == triggers.HIT  # npm i = npm install
    sudo = triggers.derive("sudo make install put files under /usr/local", "build a package")
    assert shell(sudo, "sudo make -C vendor/lib install") == triggers.HIT
    upgrade = triggers.derive(
        "go get -u ./... upgraded every dependency", "pin one (go get mod@v1.2.3), then go mod tidy"
    )
    # ``go get`` is run by every repeat too; ``go mod tidy`` after the mistake undoes nothing
    assert shell(upgrade, "go get -u -t ./... && go mod tidy") == triggers.HIT
    reset = triggers.derive(
        "git reset --hard lost the work", "save it first (git stash push -u), then reset"
    )
    assert shell(reset, "git stash push -u && git reset --hard origin/main") == triggers.SAFE


def test_a_variable_is_no_code_and_its_guard_is_safe() -> None:
    rm = triggers.derive('rm -rf "$BUILD_DIR"/* ran with BUILD_DIR unset', "use ${BUILD_DIR:?}")
    assert "build_dir" not in rm.code
    assert shell(rm, "rm -rf $OUT_DIR/*") == triggers.HIT
    assert shell(rm, 'rm -rf "${OUT_DIR:?}"/*') == triggers.SAFE


def test_a_program_named_alone_does_not_take_the_answers_subcommand_flags() -> None:
    add = triggers.derive("staging everything with git add . leaked .env", "use git add -p")
    assert shell(add, "git switch main") != triggers.HIT


def test_past_the_cap_a_lesson_whose_known_mistake_the_call_makes_stays(
    db: xdb.Database, monkeypatch: Any
) -> None:
    """More lessons name the call's program than the candidates a call may have: the one
    whose known mistake the call makes is kept, whatever its id's place."""
    monkeypatch.setattr("xdb.engine.lesson_candidates.MAX_CANDIDATES", 3)
    for n in range(4):
        tagged = {"tool_name": "Bash", "tool_input": {"command": f"git tag v{n}"}}
        annotated = {"tool_name": "Bash", "tool_input": {"command": f"git tag -a v{n} -m notes"}}
        db.add_lesson(
            question=f"the release notes of version {n} went missing",
            answer="tag it",
            example_call=tagged,
            fix_call=annotated,
        )
    made = db.add_lesson(
        question="git push --force to main overwrote teammates' commits",
        answer="push a branch and open a pull request; --force-with-lease only on your own branch",
    ).lesson
    seen = trigger_match.seen(parse_call("Bash", {"command": "git push -f origin main"}))
    found = structural(db._context, seen)
    assert len(found) == 3 and found[0] == made.lesson_id
