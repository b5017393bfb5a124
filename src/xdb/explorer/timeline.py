"""A session's timeline for the explorer: its timesteps in windows (a zoom level: ticks,
or minutes, hours, days), each with its time, what happened in it, its top concepts (the
heat strip) and its fidelity tiers; events as spans across windows; COLD records in place
of the ticks they replaced; tags and comments as marks on the windows they touch. Or its
timesteps as a conversation's turns (``messages``), which the marks are placed on alike."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import quote

from xdb.ids import parse_timestep_id

ZOOMS = {"tick": 1, "10": 10, "100": 100, "1000": 1000, "minute": 60, "hour": 3600, "day": 86_400}
TIME_ZOOMS = ("minute", "hour", "day")
TOP = 3  # concepts a window shows


@dataclass(frozen=True)
class Mark:
    """A tag or a comment as the timeline shows it."""

    kind: str  # "tag" or "comment"
    label: str
    title: str  # the whole text, and what it is on
    href: str | None = None


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
    marks: list[Mark] = field(default_factory=list)

    @property
    def top(self) -> list[tuple[str, float]]:
        return sorted(self.concepts.items(), key=lambda c: (-c[1], c[0]))[:TOP]

    def take(self, step: Any) -> None:
        """Count ``step`` in: its kind, tier, peak activations and event."""
        self.kinds[str(step.event_type)] += 1
        self.tiers[str(step.fidelity)] += 1
        for concept, value in step.concept_activations.items():
            if value > self.concepts.get(concept, 0.0):
                self.concepts[concept] = value
        if step.event_id:
            self.events.add(step.event_id)


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
        window.take(step)
    for window in out:
        window.text = " ".join(window.text.split())[:240]
    return out


@dataclass
class Message(Window):
    """A turn of the conversation: consecutive timesteps of one speaker and kind (an
    answer's tokens, an event's parts), its text whole up to ``MESSAGE_TEXT``."""

    role: str = ""
    event_type: str = ""
    event_id: str | None = None
    ended: bool = False
    cut: bool = False  # its text was longer than MESSAGE_TEXT


MESSAGE_TEXT = 4000


def messages(timesteps: Sequence[Any]) -> list[Message]:
    """The timesteps (in tick order) as a conversation: an output's tokens, or the parts of
    one event, make one message until the event ends; any other timestep is its own."""
    out: list[Message] = []
    for step in timesteps:
        kind, role = str(step.event_type), str(step.role)
        last = out[-1] if out else None
        joins = (
            last is not None
            and not last.ended
            and (last.event_type, last.role, last.event_id) == (kind, role, step.event_id)
            and (step.event_id is not None or kind == "output")
        )
        if last is None or not joins:
            last = Message(step.tick, step.tick, step.timestamp, step.timestamp, role=role,
                           event_type=kind, event_id=step.event_id)  # fmt: skip
            out.append(last)
        last.last_tick, last.end, last.ended = step.tick, step.timestamp, step.event_end
        if not last.cut:
            joiner = "" if kind == "output" or not last.text else "\n"
            last.text += joiner + step.content
            if len(last.text) > MESSAGE_TEXT:
                last.text, last.cut = last.text[:MESSAGE_TEXT] + "…", True
        last.take(step)
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


def place_marks(found: Sequence[Window], annotations: Any) -> list[Mark]:
    """Put each tag application and comment of ``annotations`` (``xdb.annotations``) on
    the windows it touches: a timestep's, a range's, an event's; returns those on the
    whole session and those touching no window shown (compacted ticks, other pages)."""
    whole: list[Mark] = []
    for mark, target in _marked(annotations):
        tick = parse_timestep_id(target.timestep_id) if target.timestep_id else None
        if tick is not None:
            inside = [w for w in found if w.first_tick <= tick[1] <= w.last_tick]
        elif target.range_start is not None and target.range_end is not None:
            lo, hi = target.range_start, target.range_end
            inside = [w for w in found if w.first_tick <= hi and lo <= w.last_tick]
        elif target.event_id is not None:
            inside = [w for w in found if target.event_id in w.events]
        else:
            inside = []
        for window in inside:
            window.marks.append(mark)
        if not inside:
            whole.append(mark)
    return whole


def marks(annotations: Any, keep: Callable[[Any], bool] = lambda on: True) -> list[Mark]:
    """The tags and comments of ``annotations`` whose target ``keep`` takes, as marks."""
    return [mark for mark, target in _marked(annotations) if keep(target)]


def _marked(annotations: Any) -> Iterator[tuple[Mark, Any]]:
    """Each tag application and comment as a mark, with what it is on."""
    for applied in annotations.tags:
        tag, on = applied.tag, applied.application
        href = None
        if tag.tag_type.value == "concept":
            href = f"/concepts/{quote(tag.concept_id or tag.name, safe='/:@')}"
        elif tag.tag_type.value == "bud":
            href = f"/buds/{quote(tag.id, safe='/:@')}"
        note = f": {on.note}" if on.note else ""
        title = f"{tag.tag_type.value} tag {tag.name} on {_target(on)}{note}"
        yield Mark("tag", tag.name, title, href), on
    for said in annotations.comments:
        text = " ".join(said.content.split())
        label = text if len(text) <= 60 else text[:59] + "…"
        title = f"comment by {said.created_by} on {_target(said)}: {text}"
        yield Mark("comment", label, title), said


def _target(on: Any) -> str:
    if on.timestep_id:
        return str(on.timestep_id)
    if on.range_start is not None:
        return f"ticks {on.range_start}–{on.range_end}"
    if on.event_id:
        return f"event {on.event_id}"
    return "the session"
