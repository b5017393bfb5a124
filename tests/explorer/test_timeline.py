"""A session's timeline in windows: by ticks or by time, with what happened, the peak
activation of each concept, tiers and events as spans."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from xdb.explorer.timeline import episode_spans, spans, windows
from xdb.models.log import Timestep

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
