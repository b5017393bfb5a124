"""The known mistake a lesson's words resemble when they name none (``known.similar``), and
what a guess may do: find the mistake and its safe way, never clear a call. Examples are
ours, outside the development and held-out sets."""

from __future__ import annotations

from xdb.engine import trigger_match, triggers
from xdb.engine.calls import parse_call
from xdb.engine.known import named_in, similar

# Tells of ``aws s3 sync --delete`` in words none of its phrases holds.
MIRRORED = "our nightly job wiped the bucket because aws s3 sync mirrored deletions"


def test_the_nearest_label_wins_and_a_left_out_text_is_not_asked() -> None:
    index = similar.Index(
        [
            ("push", "force pushed over a shared branch"),
            ("clean", "git clean removed untracked files"),
            ("clean", "wiped untracked files with a forced clean"),
        ]
    )
    assert index.nearest("a forced clean wiped my untracked notes")[0][0] == "clean"
    assert index.nearest("force pushed the shared branch")[0][0] == "push"
    alone = index.nearest("force pushed over a shared branch", 1, frozenset((0,)))
    assert not alone or alone[0][0] != "push"


def test_common_words_and_absence_say_nothing_of_the_mistake() -> None:
    assert similar.terms("The lock was never taken") == ["lock", "without", "taken"]
    assert similar.terms("it is what it was") == []


def test_a_lesson_in_other_words_resembles_its_pattern_at_the_floor() -> None:
    assert not named_in(MIRRORED)
    assert similar.nearest(MIRRORED) == ("aws-s3-sync-delete",)
    # A lesson about nothing the catalogue knows resembles nothing at the floor.
    assert similar.nearest("the standup ran long because the agenda was unclear") == ()


def test_a_resembled_pattern_finds_the_mistake_and_its_safe_way() -> None:
    trigger = triggers.derive(MIRRORED, "sync into a versioned bucket and check the listing")
    assert trigger.resembles == frozenset(("aws-s3-sync-delete",)) and not trigger.known

    def said(command: str) -> str:
        seen = trigger_match.seen(parse_call("Bash", {"command": command}, "/w/app"))
        return trigger_match.match(trigger, seen, 1.0, 1.0, MIRRORED)

    assert said("aws s3 sync ./public s3://acme-www --delete") == triggers.HIT
    assert said("aws s3 sync ./public s3://acme-www --delete --dryrun") == triggers.SAFE
    assert said("npm run build") != triggers.HIT


def test_a_guess_clears_no_call_the_rest_of_the_trigger_finds() -> None:
    """A named pattern that reads a call and finds it clean makes the call no repeat; a
    resembled one (a guess) leaves it to the rest of the trigger (here a flag the lesson
    names)."""
    command = "aws s3 sync build/ s3://acme-www --exact-timestamps"
    seen = trigger_match.seen(parse_call("Bash", {"command": command}, "/w/app"))
    flag = frozenset(("--exact-timestamps",))
    sync = frozenset(("aws-s3-sync-delete",))
    named = triggers.Trigger(flags=flag, known=sync)
    guessed = triggers.Trigger(flags=flag, resembles=sync)
    assert trigger_match.match(named, seen, 1.0, 1.0, "q") == triggers.MISS
    assert trigger_match.match(guessed, seen, 1.0, 1.0, "q") == triggers.HIT


def test_a_lesson_learned_on_a_call_keeps_only_resembled_mistakes_that_call_makes() -> None:
    failing = {"tool_name": "Bash", "tool_input": {"command": "aws s3 sync dist s3://b --delete"}}
    trigger = triggers.derive(MIRRORED, "preview first", failing)
    assert "aws-s3-sync-delete" in trigger.resembles and not trigger.known
    clean = {"tool_name": "Bash", "tool_input": {"command": "aws s3 cp dist/app.js s3://b/"}}
    assert not triggers.derive(MIRRORED, "preview first", clean).resembles


def test_a_resembled_mistake_survives_the_stored_trigger() -> None:
    trigger = triggers.derive(MIRRORED, "look at what sync would remove before it runs")
    assert trigger.resembles
    assert triggers.Trigger.from_json(trigger.to_json()) == trigger
