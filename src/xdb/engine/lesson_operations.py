"""The experience engine's operations (seed 003; docs/engine.md): lessons, verdicts, and the
check a hook runs before a tool call.

A lesson is an episode (kind ``lesson`` in namespace ``xdb-lessons``: found by the same
hybrid search as any episode, under the same access policy) and a learning object of kind
``lesson`` holding its state (tier, counts, scope exclusions; ``series`` is its short id).
Edges between lessons (GENERALIZES, RELATES_TO, SUPERSEDES) are stored graph edges. The
warnings a session was shown are a learning object of kind ``engine_session`` and steering
timesteps of the xdb session ``<agent>-<session id>``.
"""

from __future__ import annotations

import hashlib
from typing import Any

from xdb.engine import evolution, scoring, triggers
from xdb.engine.brain import brain_from_env
from xdb.engine.engine_models import (
    COLLECTION,
    AddLessonRequest,
    AddLessonResponse,
    FeedbackRequest,
    FeedbackResponse,
    LessonEdge,
    LessonRequest,
    LessonResponse,
    LessonsRequest,
    LessonsResponse,
    LessonView,
)
from xdb.episodes.episode_models import SearchEpisodesRequest
from xdb.errors import NotFound, PermissionDenied
from xdb.ids import new_id
from xdb.models.common import Page
from xdb.ops.registry import Context
from xdb.store.learning import LearningObject
from xdb.store.types import GraphEdgeRow, NewEpisode
from xdb.timeutil import from_us, now_us

NAMESPACE = "xdb-lessons"
KIND = "lesson"
SESSION_KIND = "engine_session"
RELATIONS = {"GENERALIZES", "RELATES_TO", "SUPERSEDES"}
SAME_QUESTION = 0.5  # keyword overlap (Jaccard) of two questions about the same thing
RELATED = 0.3
T0_BUDGET_CHARS = 1600  # ~400 tokens
T1_BUDGET_CHARS = 2400  # ~600 tokens
CLUSTER = 3  # similar T1 lessons that make a T0 principle
T3_DAYS = 30  # a raw lesson expires unless promoted within this
HISTORY = 100  # events kept in a lesson's history (its creation, then the latest)


def short_id(lesson_id: str) -> str:
    return hashlib.sha256(lesson_id.encode()).hexdigest()[:6]


def note(body: dict[str, Any], at: int, event: str, detail: str | None = None,
         source: str | None = None) -> None:  # fmt: skip
    """Add an event to a lesson's history (what ``lessons timeline`` shows)."""
    entry = {"at": at, "event": event, "detail": detail, "source": source}
    kept = [*body.get("history", []), entry]
    body["history"] = kept if len(kept) <= HISTORY else [kept[0], *kept[-(HISTORY - 1) :]]


def _jaccard(a: str, b: str) -> float:
    ka, kb = scoring.keywords(a), scoring.keywords(b)
    return len(ka & kb) / len(ka | kb) if ka and kb else 0.0


def _view(episode: NewEpisode, state: LearningObject) -> LessonView:
    meta, body = episode.metadata, state.body
    return LessonView(
        lesson_id=episode.id,
        short_id=state.series or short_id(episode.id),
        question=str(meta.get("question", "")),
        answer=str(meta.get("answer", episode.summary)),
        tier=body["tier"],
        collection=COLLECTION[body["tier"]],
        domain=meta.get("domain"),
        language=meta.get("language"),
        framework=meta.get("framework"),
        project=meta.get("project"),
        archived=bool(body.get("archived")),
        superseded=bool(body.get("superseded")),
        hits=int(body.get("hits", 0)),
        follows=int(body.get("follows", 0)),
        ignores=int(body.get("ignores", 0)),
        noise={str(k): int(v) for k, v in dict(body.get("noise", {})).items()},
        confidence=round(float(body.get("confidence", 0.5)), 4),
        lang_exclude=list(body.get("lang_exclude", [])),
        project_exclude=list(body.get("project_exclude", [])),
        created_at=from_us(episode.created_us),
    )


def _scoring_lesson(episode: NewEpisode, state: LearningObject) -> scoring.Lesson:
    meta, body = episode.metadata, state.body
    return scoring.Lesson(
        id=episode.id,
        question=str(meta.get("question", "")),
        answer=str(meta.get("answer", "")),
        tier=body["tier"],
        domain=meta.get("domain"),
        language=meta.get("language"),
        project=meta.get("project"),
        # A raw lesson not promoted within T3_DAYS has expired.
        archived=bool(body.get("archived"))
        or (body["tier"] == "T3" and now_us() - episode.created_us > T3_DAYS * scoring.DAY_US),
        superseded=bool(body.get("superseded")),
        hits=int(body.get("hits", 0)),
        confidence=float(body.get("confidence", 0.5)),
        last_signal_us=int(body.get("last_signal_us", 0)),
        lang_exclude=list(body.get("lang_exclude", [])),
        project_exclude=list(body.get("project_exclude", [])),
    )


def _load(ctx: Context, ids: list[str]) -> dict[str, tuple[NewEpisode, LearningObject]]:
    """Each of ``ids`` that is a lesson the caller reads: (episode, state)."""
    episodes = ctx.store.episodes_by_ids(ids)
    states = ctx.store.learning_objects(KIND, ids)
    return {i: (episodes[i].episode, states[i]) for i in ids if i in episodes and i in states}


def resolve(ctx: Context, lesson_id: str) -> tuple[NewEpisode, LearningObject]:
    found = _load(ctx, [lesson_id])
    if not found:
        by_short, _ = ctx.store.list_learning_objects(KIND, {"series": lesson_id}, None, 2)
        if len(by_short) == 1:
            found = _load(ctx, [by_short[0].id])
    if not found:
        raise NotFound(f"unknown lesson {lesson_id!r}", field="lesson_id")
    return next(iter(found.values()))


def _searchable(question: str, answer: str, trigger: triggers.Trigger) -> str:
    """A lesson's text, and the commands and code its calls name that its words do not: a
    check finds its candidates by search, and a lesson learned from a call whose words
    name none of it would never be one."""
    text = f"{question}\n{answer}"
    said = text.lower()
    terms = [" ".join((f.program, *f.subcommand)) for f in trigger.commands]
    missing = [t for t in dict.fromkeys([*terms, *sorted(trigger.code)]) if t.lower() not in said]
    return f"{text}\n(in its calls: {'; '.join(missing)})" if missing else text


def _search(ctx: Context, text: str, limit: int = 20) -> list[tuple[str, float]]:
    """Lessons by hybrid relevance to ``text``: (id, score / best score)."""
    from xdb.episodes.episode_search import search_episodes

    words = " ".join(sorted(scoring.keywords(text)))[:1000]
    if not words:
        return []
    hits = search_episodes(
        ctx,
        SearchEpisodesRequest(
            text_query=words,
            episode_kinds=[KIND],
            namespace=NAMESPACE,
            page=Page(page_size=limit),
        ),
    ).episodes
    best = max((h.score for h in hits), default=0.0)
    return [(h.episode_id, h.score / best if best > 0 else 0.0) for h in hits]


# ---------------------------------------------------------------------- lessons


def add_lesson(
    ctx: Context, req: AddLessonRequest, learned_from: dict[str, Any] | None = None
) -> AddLessonResponse:
    """``learned_from`` (extraction): the calls the lesson was learned from (the failing
    call and its output, the fix and what changed, a ``signature``), kept in its metadata
    for triggers derived from them."""
    at = now_us()
    language = req.language or scoring.FRAMEWORK_LANGUAGE.get((req.framework or "").lower())
    scoped = any(v is not None for v in (req.domain, req.language, req.framework))
    tier = req.tier or ("T2" if scoped else "T3")
    lesson_id = new_id("episode")
    meta: dict[str, Any] = {
        "question": req.question,
        "answer": req.answer,
        "domain": req.domain,
        "language": language,
        "framework": req.framework,
        "project": req.project,
        "source": req.source,
    }
    if learned_from is not None:
        meta["learned_from"] = learned_from
    # What the mistake looks like in a call's structure (docs/engine.md, layer 3): from the
    # words, and the failing call and fix given with the lesson or extracted with it.
    learned = learned_from or {}
    trigger = triggers.derive(req.question, req.answer,
                              req.example_call or learned.get("failing"),
                              req.fix_call or learned.get("fix"))  # fmt: skip
    meta["trigger"] = trigger.to_json()
    if req.access_policy_id is not None:
        ctx.require_access(req.access_policy_id, "write", "lesson")
    # Older lessons about the same question, of the same scope, that answer otherwise.
    superseded, related = [], []
    for other_id, _ in _search(ctx, req.question, 10):
        for episode, state in _load(ctx, [other_id]).values():
            theirs = episode.metadata
            if (theirs.get("language"), theirs.get("domain")) != (language, req.domain):
                continue
            same = _jaccard(req.question, str(theirs.get("question", "")))
            if _other_failure(learned_from, theirs.get("learned_from")):
                same = min(same, RELATED)  # alike in words, learned from another failure
            if same >= SAME_QUESTION and _jaccard(req.answer, str(theirs.get("answer"))) < 0.5:
                superseded.append((episode.id, state))
            elif same >= RELATED:
                related.append(episode.id)
    ctx.store.add_episode(
        NewEpisode(
            id=lesson_id,
            namespace=NAMESPACE,
            kind=KIND,
            session_id=None,
            summary=req.answer[:200],
            content=_searchable(req.question, req.answer, trigger),
            start_us=at,
            end_us=at,
            created_us=at,
            created_by=ctx.caller.id,
            concept_tags=[],
            labels=[],
            motive_profile={},
            metadata=meta,
            provenance={"source": req.source, "details": {}},
            access_policy_id=req.access_policy_id,
        )
    )
    body = evolution.new_state(tier, at)
    replaces = ", ".join(old_state.series or old_id for old_id, old_state in superseded)
    note(body, at, "created", f"{tier}; supersedes {replaces}" if replaces else tier, req.source)
    state = LearningObject(
        KIND, lesson_id, short_id(lesson_id), None, None, tier,
        body, at, at, ctx.caller.id, req.access_policy_id,
    )  # fmt: skip
    ctx.store.put_learning_object(state)
    for old_id, old_state in superseded:
        replaced_by = [*old_state.body.get("superseded_by", []), lesson_id]
        old_state.body = {**old_state.body, "superseded": True, "superseded_by": replaced_by}
        note(old_state.body, at, "superseded", f"by {short_id(lesson_id)}")
        old_state.updated_us = at
        ctx.store.put_learning_object(old_state)
        _edge(ctx, lesson_id, "SUPERSEDES", old_id, at)
    for other_id in related:
        _edge(ctx, lesson_id, "RELATES_TO", other_id, at)
    if ctx.indexer is not None:
        ctx.indexer.notify()
    episode = ctx.store.episodes_by_ids([lesson_id])[lesson_id].episode
    return AddLessonResponse(
        lesson=_view(episode, state), superseded=[s for s, _ in superseded], related=related
    )


def _other_failure(mine: dict[str, Any] | None, theirs: object) -> bool:
    """Whether two extracted lessons come from different failures (their signatures differ)."""
    ours = (mine or {}).get("signature")
    other = theirs.get("signature") if isinstance(theirs, dict) else None
    return bool(ours and other and ours != other)


def _edge(ctx: Context, src: str, relation: str, dst: str, at: int) -> None:
    ctx.store.add_graph_edge(GraphEdgeRow(src, relation, dst), None, at, ctx.caller.id)


def lessons(ctx: Context, req: LessonsRequest) -> LessonsResponse:
    filters: dict[str, Any] = {} if req.tier is None else {"status": req.tier}
    states, _ = ctx.store.list_learning_objects(KIND, filters, None, 100_000)
    found = _load(ctx, [s.id for s in states])
    views = [
        _view(*found[s.id])
        for s in states
        if s.id in found and (req.include_archived or not s.body.get("archived"))
    ]
    return LessonsResponse(lessons=views[: req.limit], total=len(views))


def lesson(ctx: Context, req: LessonRequest) -> LessonResponse:
    episode, state = resolve(ctx, req.lesson_id)
    edges = ctx.store.graph_edges([episode.id], RELATIONS, True, True)
    return LessonResponse(
        lesson=_view(episode, state),
        edges=[LessonEdge(src=e.src, relation=e.relation, dst=e.dst) for e in sorted(edges)],
    )


def feedback(ctx: Context, req: FeedbackRequest) -> FeedbackResponse:
    episode, state = resolve(ctx, req.lesson_id)
    if state.access_policy_id is not None:  # a verdict changes the lesson
        ctx.require_access(state.access_policy_id, "write", "lesson")
    at = now_us()
    body = dict(state.body)
    weight = evolution.MANUAL_WEIGHT if req.source == "manual" else 1
    changes = evolution.apply(body, req.verdict, req.reason, req.language, req.project,
                              weight, at)  # fmt: skip
    note(body, at, req.verdict, req.reason, req.source)
    for change in changes:
        note(body, at, "changed", change, req.source)
    state.body, state.status, state.updated_us = body, body["tier"], at
    ctx.store.put_learning_object(state)
    principle = None
    if "promoted to T1 (behavioral)" in changes:
        try:
            principle = _generalize(ctx, episode, state.access_policy_id, at)
        except PermissionDenied:  # the cluster's policy is not the caller's to write
            principle = None
        if principle is not None:
            changes.append(f"generalized into principle {principle}")
    return FeedbackResponse(lesson=_view(episode, state), changes=changes, principle_id=principle)


def _principle(cluster: list[NewEpisode]) -> tuple[str, str]:
    """The principle's words: the brain's when one is configured and answers in the form
    "When X appears, do Y because Z", else a template."""
    pairs = [(str(e.metadata["question"]), str(e.metadata["answer"])) for e in cluster]
    brain = brain_from_env()
    worded = brain.principle(pairs) if brain is not None else None
    if worded is not None:
        return worded
    common = set.intersection(*(scoring.keywords(q) for q, _ in pairs))
    kind = cluster[0].metadata.get("domain") or "this kind of"
    what = ", ".join(sorted(common)[:5]) or "the same cause"
    answers = "; ".join(dict.fromkeys(a for _, a in pairs))
    return (
        f"When a {kind} failure involving {what} appears",
        f"do this: {answers}; because it was confirmed in {len(cluster)} lessons",
    )


def _generalize(ctx: Context, promoted: NewEpisode, policy: str | None, at: int) -> str | None:
    """A T0 principle from a cluster of similar T1 lessons of one scope, if there is one
    that no principle generalizes yet (a deterministic template, without a brain)."""
    states, _ = ctx.store.list_learning_objects(KIND, {"status": "T1"}, None, 100_000)
    found = _load(ctx, [s.id for s in states if not s.body.get("archived")])
    meta = promoted.metadata
    # One scope and one access policy: a principle tells what its lessons say, so it is
    # made only of lessons its readers may read, and kept under their policy.
    scope = (meta.get("language"), meta.get("domain"), policy)
    peers = [
        ep
        for ep, st in found.values()
        if (ep.metadata.get("language"), ep.metadata.get("domain"), st.access_policy_id) == scope
    ]
    # Single link: a lesson joins when it is like any lesson already in the cluster.
    cluster = [promoted]
    grew = True
    while grew:
        grew = False
        for ep in peers:
            if ep.id not in {c.id for c in cluster} and any(
                _jaccard(str(ep.metadata["question"]), str(c.metadata["question"])) >= RELATED
                for c in cluster
            ):
                cluster.append(ep)
                grew = True
    generalized = ctx.store.graph_edges([e.id for e in cluster], {"GENERALIZES"}, False, True)
    cluster = [e for e in cluster if not any(g.dst == e.id for g in generalized)]
    if len(cluster) < CLUSTER:
        return None
    question, answer = _principle(cluster)
    made = add_lesson(
        ctx,
        AddLessonRequest(
            question=question,
            answer=answer,
            domain=meta.get("domain"),
            language=meta.get("language"),
            tier="T0",
            source="principle",
            access_policy_id=policy,
        ),
    )
    for e in cluster:
        _edge(ctx, made.lesson.lesson_id, "GENERALIZES", e.id, at)
        member = ctx.store.learning_object(KIND, e.id)
        if member is not None:
            note(member.body, at, "generalized", f"into {made.lesson.short_id}")
            ctx.store.put_learning_object(member)
    return made.lesson.lesson_id
