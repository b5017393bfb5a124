"""A session's timeline in windows: by ticks or by time, with what happened, the peak
activation of each concept, tiers and events as spans; and as a conversation's turns."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from xdb.explorer.timeline import episode_spans, messages, place_marks, spans, windows
from xdb.log.log_models import AnnotationsResponse, Timestep

START = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)


def step(tick: int, seconds: int, event: str | None = None, **concepts: float) -> Timestep:
    return Timestep(id=f"t{tick}", session_id="s", tick=tick,
                    timestamp=START + timedelta(seconds=seconds), event_type="output",
                    role="assistant", content=f"w{tick}", event_id=event,
                    concept_activations=concepts)  # fmt: skip


STEPS = [step(1, 0, "e1", joy=0.2), step(2, 30, "e1", joy=0.9, calm=0.1),
         step(11, 3600, "e2", calm=0.5), step(12, 7300, None)]  # fmt: skip


def test_windows_by_ticks() -> None:
    found = windows(STEPS, "10")
    assert [(w.first_tick, w.last_tick) for w in found] == [(1, 2), (11, 12)]
    assert found[0].top == [("joy", 0.9), ("calm", 0.1)]  # each concept's peak
    assert found[0].text == "w1w2" and found[0].kinds == {"output": 2}
    assert spans(found) == [("e1", 0, 0), ("e2", 1, 1)]


def test_windows_by_time() -> None:
    assert [(w.first_tick, w.last_tick) for w in windows(STEPS, "hour")] == [(1, 2), (11, 11),
                                                                            (12, 12)]  # fmt: skip
    assert len(windows(STEPS, "day")) == 1 and len(windows(STEPS, "tick")) == 4


def test_episodes_span_the_windows_they_overlap() -> None:
    class Hit:
        def __init__(self, start: int, end: int) -> None:
            window = type("W", (), {"start_time": START + timedelta(seconds=start),
                                    "end_time": START + timedelta(seconds=end)})  # fmt: skip
            self.time_window = window

    found = windows(STEPS, "tick")
    early, late, outside = Hit(0, 40), Hit(3600, 8000), Hit(9000, 9999)
    spanned = [(f, lo) for _, f, lo in episode_spans(found, [early, late, outside])]
    assert spanned == [(0, 1), (2, 3), (None, None)]


def test_tags_and_comments_mark_the_windows_they_touch() -> None:
    def on(**target: object) -> dict[str, object]:
        return {"id": "x", "session_id": "s", "created_at": START, "created_by": "me",
                "target_type": "timestep", **target}  # fmt: skip

    def tag(name: str, kind: str, **target: object) -> dict[str, object]:
        return {"tag": {"id": f"tag-{name}", "name": name, "tag_type": kind, "created_at": START,
                        "created_by": "me", "concept_id": "pack::concept/Joy"},
                "application": {**on(**target), "tag_id": f"tag-{name}", "confidence": 1.0,
                                "source": "manual", "note": "seen"}}  # fmt: skip

    marked = AnnotationsResponse.model_validate({
        "session_id": "s", "truncated": False,
        "tags": [tag("joyful", "concept", timestep_id="ts-s-2"),
                 tag("late", "custom", target_type="range", range_start=2, range_end=11),
                 tag("tool", "custom", target_type="event", event_id="e2")],
        "comments": [{**on(target_type="session"), "content": "all of it", "updated_at": START},
                     {**on(timestep_id="ts-s-12"), "content": "x " * 50, "updated_at": START}],
    })  # fmt: skip
    found = windows(STEPS, "tick")  # ticks 1, 2, 11, 12
    whole = place_marks(found, marked)
    assert [m.label for m in whole] == ["all of it"]
    assert [[m.label for m in w.marks] for w in found] == [
        [], ["joyful", "late"], ["late", "tool"], ["x " * 29 + "x…"]]  # fmt: skip
    joyful = found[1].marks[0]
    assert joyful.href == "/concepts/pack::concept/Joy" and joyful.kind == "tag"
    assert joyful.title == "concept tag joyful on ts-s-2: seen"


def test_a_conversation_joins_an_answers_tokens_and_an_events_parts() -> None:
    def said(
        tick: int, kind: str, role: str, text: str, event: str | None = None, end: bool = False
    ) -> Timestep:
        return Timestep(id=f"t{tick}", session_id="s", tick=tick, timestamp=START,
                        event_type=kind, role=role, content=text, event_id=event,
                        event_end=end, concept_activations={"joy": tick / 10})  # fmt: skip

    turns = messages([said(1, "input", "user", "hi"), said(2, "output", "assistant", "Hel"),
                      said(3, "output", "assistant", "lo"),
                      said(4, "tool_call", "assistant", "ls", "c"),
                      said(5, "tool_call", "assistant", "-la", "c", end=True),
                      said(6, "tool_call", "assistant", "pwd", "c"),
                      said(7, "tool_response", "tool", "README", "c"),
                      said(8, "input", "user", "thanks"),
                      said(9, "input", "user", "bye")])  # fmt: skip
    assert [(t.role, t.text, t.first_tick, t.last_tick) for t in turns] == [
        ("user", "hi", 1, 1), ("assistant", "Hello", 2, 3), ("assistant", "ls\n-la", 4, 5),
        ("assistant", "pwd", 6, 6), ("tool", "README", 7, 7), ("user", "thanks", 8, 8),
        ("user", "bye", 9, 9)]  # fmt: skip
    assert turns[1].top == [("joy", 0.3)] and turns[2].events == {"c"}
