"""Fixed test data for the store contract: the same ids and times on every backend, so two
stores given the same calls must give the same answers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdb.episodes.episode_models import Provenance
from xdb.log.log_models import Comment, Tag, TagApplication, Timestep
from xdb.models.common import TagSource, TagType, TargetType
from xdb.store.protocol import Store
from xdb.store.types import NewEpisode, NewTimestep, ResolvedTarget
from xdb.timeutil import from_us

T0 = 1_700_000_000_000_000  # 2023-11-14T22:13:20Z, in microseconds
DAY = 86_400_000_000


def step(
    session: str,
    ts_us: int,
    content: str,
    *,
    event_type: str = "output",
    role: str = "assistant",
    token: int | None = None,
    event: str | None = None,
    start: bool = False,
    end: bool = False,
    acts: dict[str, float] | None = None,
) -> NewTimestep:
    return NewTimestep(
        session, ts_us, event_type, role, content, token, event, start, end, acts or {}
    )


def tag(name: str, tag_type: TagType = TagType.CUSTOM, n: int = 0, **extra: Any) -> Tag:
    return Tag(
        id=f"tag-{name}-{tag_type.value}",
        name=name,
        tag_type=tag_type,
        created_at=from_us(T0 + n),
        created_by="tester",
        **extra,
    )


def application(app_id: str, tag_id: str, target: ResolvedTarget) -> TagApplication:
    return TagApplication(
        id=app_id,
        tag_id=tag_id,
        target_type=TargetType(target.target_type),
        session_id=target.session_id,
        confidence=0.75,
        source=TagSource.MANUAL,
        note="why not",
        created_at=from_us(T0),
        created_by="tester",
    )


def comment(comment_id: str, session: str, target_type: TargetType, text: str) -> Comment:
    return Comment(
        id=comment_id,
        session_id=session,
        target_type=target_type,
        content=text,
        created_at=from_us(T0),
        updated_at=from_us(T0 + 1),
        created_by="tester",
    )


def episode(
    n: int,
    content: str,
    *,
    namespace: str = "default",
    kind: str = "turn",
    session: str | None = "conv",
    start_us: int | None = None,
    length_us: int = 1_000_000,
    summary: str | None = None,
    concepts: Sequence[tuple[str, float, str]] = (),
    labels: Sequence[tuple[str, str, float]] = (),
) -> NewEpisode:
    start = T0 + n * 60_000_000 if start_us is None else start_us
    return NewEpisode(
        id=f"episode-{n:03d}",
        namespace=namespace,
        kind=kind,
        session_id=session,
        summary=summary if summary is not None else content.split(".")[0],
        content=content,
        start_us=start,
        end_us=start + length_us,
        created_us=T0 + n,
        created_by="tester",
        concept_tags=[{"concept_id": c, "score": s, "kind": k} for c, s, k in concepts],
        labels=[
            {"concept_id": c, "label": lb, "confidence": conf, "label_source": "human"}
            for c, lb, conf in labels
        ],
        motive_profile={"curiosity": 0.5},
        metadata={"n": n, "nested": {"ü": [1, 2]}},
        provenance=Provenance(session_id=session, source="test").model_dump(mode="json"),
    )


def record_log(store: Store) -> None:
    """A small log: two sessions, events, activations, tags of every target, comments."""
    store.record(
        [
            step("s1", T0, "Hello there, café owner", event_type="input", role="user"),
            step("s1", T0 + 10, "The weather_report says rain", event="e1", start=True),
            step("s1", T0 + 20, "rain until Friday", event="e1", acts={"c/rain": 0.9}),
            step("s1", T0 + 30, "Done.", event="e1", end=True, acts={"c/rain": 0.2}),
            step("s2", T0 + 15, "other session speaks", event_type="system", role="system"),
        ]
    )
    store.record(
        [step("s2", T0 + 40 + i, f"tok{i}", token=i, acts={"c/t": i / 10}) for i in range(6)]
    )
    store.create_tag(tag("weather", TagType.CONCEPT, 1, concept_id="weather"))
    store.create_tag(tag("alice", TagType.ENTITY, 2, entity_type="person"))
    store.create_tag(tag("idea", TagType.BUD, 3, bud_status="collecting", related_concepts=["x"]))
    store.apply_tag(
        application("ta-1", "tag-weather-concept", ResolvedTarget("event", "s1", event_id="e1")),
        ResolvedTarget("event", "s1", event_id="e1"),
        None,
    )
    store.apply_tag(
        application("ta-2", "tag-alice-entity", ResolvedTarget("timestep", "s1", tick=1)),
        ResolvedTarget("timestep", "s1", tick=1),
        None,
    )
    rng = ResolvedTarget("range", "s2", range_start=2, range_end=4)
    store.apply_tag(application("ta-3", "tag-noted-custom", rng), rng, tag("noted", n=4))
    store.add_comment(comment("comment-1", "s1", TargetType.SESSION, "a fine session"), None)
    store.add_comment(
        comment("comment-2", "s1", TargetType.TIMESTEP, "this one"),
        ResolvedTarget("timestep", "s1", tick=2),
    )


def ids(steps: Sequence[Timestep]) -> list[str]:
    return [s.id for s in steps]
