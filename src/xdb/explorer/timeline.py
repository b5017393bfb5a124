"""A session's timeline for the explorer: its timesteps in windows (a zoom level: ticks,
or minutes, hours, days), each with its time, what happened in it, its top concepts (the
heat strip) and its fidelity tiers; events as spans across windows; COLD records in place
of the ticks they replaced."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

ZOOMS = {"tick": 1, "10": 10, "100": 100, "1000": 1000, "minute": 60, "hour": 3600, "day": 86_400}
TIME_ZOOMS = ("minute", "hour", "day")
TOP = 3  # concepts a window shows


@dataclass
class Window:
    first_tick: int
    last_tick: int
    start: datetime
    end: datetime
    text: str = ""
    kinds: Counter[str] = field(default_factory=Counter)
    tiers: Counter[str] = field(default_factory=Counter)
    concepts: dict[str, float] = field(default_factory=dict)  # peak activation in it
    events: set[str] = field(default_factory=set)

    @property
    def top(self) -> list[tuple[str, float]]:
        return sorted(self.concepts.items(), key=lambda c: (-c[1], c[0]))[:TOP]


def windows(timesteps: Sequence[Any], zoom: str) -> list[Window]:
    """The timesteps (in tick order) grouped by ``zoom`` (a key of ZOOMS)."""
    size = ZOOMS.get(zoom, 1)
    out: list[Window] = []
    current: tuple[int, ...] | None = None
    for step in timesteps:
        if zoom in TIME_ZOOMS:
            key: tuple[int, ...] = (int(step.timestamp.timestamp()) // size,)
        else:
            key = (step.tick // size,)
        if key != current:
            out.append(Window(step.tick, step.tick, step.timestamp, step.timestamp))
            current = key
        window = out[-1]
        window.last_tick, window.end = step.tick, step.timestamp
        if len(window.text) < 240:
            window.text += step.content if step.event_type == "output" else f" {step.content} "
        window.kinds[str(step.event_type)] += 1
        window.tiers[str(step.fidelity)] += 1
        for concept, value in step.concept_activations.items():
            if value > window.concepts.get(concept, 0.0):
                window.concepts[concept] = value
        if step.event_id:
            window.events.add(step.event_id)
    for window in out:
        window.text = " ".join(window.text.split())[:240]
    return out


def episode_spans(
    found: Sequence[Window], hits: Sequence[Any]
) -> list[tuple[Any, int | None, int | None]]:
    """(episode hit, first window, last window) of each episode, the windows its time
    window overlaps (None: none of those shown), in the order given."""
    out: list[tuple[Any, int | None, int | None]] = []
    for hit in hits:
        start, end = hit.time_window.start_time, hit.time_window.end_time
        inside = [n for n, w in enumerate(found) if w.start <= end and start <= w.end]
        out.append((hit, inside[0], inside[-1]) if inside else (hit, None, None))
    return out


def spans(found: Sequence[Window]) -> list[tuple[str, int, int]]:
    """(event id, first window, last window) of each event, by first appearance."""
    seen: dict[str, list[int]] = {}
    for number, window in enumerate(found):
        for event in sorted(window.events):
            seen.setdefault(event, [number, number])[1] = number
    return [(event, first, last) for event, (first, last) in seen.items()]
