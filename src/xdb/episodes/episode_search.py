"""search_episodes: filters, hybrid relevance, and paging that never repeats or skips.

Relevance (``ranking.py``) fuses a BM25, a vector and a concept list, each computed
under the request's filters; this module turns a request into a filter and a ranking,
and pages.

Paging: a cursor pins the snapshot its first page saw (the newest episode and the newest
vector), so later pages rank the same set the same way, and continues after the last
(score, seq) returned: walking every page returns each match exactly once even while
episodes are being added. Time and random orders page by keyset on (time or shuffle key, seq).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdb.episodes.episode_models import (
    ConceptFilter,
    ConceptTag,
    EpisodeHit,
    FilterKind,
    FilterRole,
    Polarity,
    SearchEpisodesRequest,
    SearchEpisodesResponse,
    SortBy,
    TimeWindow,
)
from xdb.episodes.ranking import Ranking
from xdb.errors import InvalidRequest, NotReady
from xdb.fidelity.record_merge import level_of
from xdb.ops import cursor as cursors
from xdb.ops.registry import Context, Operation
from xdb.store.types import ConceptCondition, EpisodeFilter, NewEpisode, StoredEpisode
from xdb.timeutil import from_us, to_us

SNIPPET = 500


def concept_conditions(filters: Sequence[ConceptFilter]) -> list[ConceptCondition]:
    """The store's conditions for a request's concept filters."""
    return [
        ConceptCondition(
            f.concept_id,
            f.min_score,
            None if f.kind is FilterKind.ANY else f.kind.value,
            f.polarity is Polarity.ABSENT,
            f.role in (FilterRole.TAG, FilterRole.ANY),
            f.role in (FilterRole.EXEMPLAR_LABEL, FilterRole.ANY),
        )
        for f in filters
    ]


def episode_filter(req: SearchEpisodesRequest) -> EpisodeFilter:
    concepts = concept_conditions(req.concept_filters)
    tr, lf = req.time_range, req.label_filters
    return EpisodeFilter(
        namespace=req.namespace,
        session_id=req.session_id,
        start_us=to_us(tr.start_time) if tr and tr.start_time else None,
        end_us=to_us(tr.end_time) if tr and tr.end_time else None,
        kinds=list(req.episode_kinds) if req.episode_kinds else None,
        concepts=concepts,
        label_concept=lf.concept_id if lf else None,
        label=lf.label.value if lf and lf.label else None,
        label_min_confidence=lf.min_confidence if lf else None,
    )


def shown_fields(ep: NewEpisode) -> dict[str, Any]:
    """The fields a search hit and a full episode both show, from the stored row."""
    return {
        "episode_id": ep.id,
        "kind": ep.kind,
        "namespace": ep.namespace,
        "session_id": ep.session_id,
        "summary": ep.summary,
        "concept_tags": [ConceptTag.model_validate(t) for t in ep.concept_tags],
        "motive_profile": ep.motive_profile,
        "time_window": TimeWindow(start_time=from_us(ep.start_us), end_time=from_us(ep.end_us)),
        "fidelity": level_of(ep.provenance) or "full",
    }


def hit(stored: StoredEpisode, score: float, signals: dict[str, float] | None = None) -> EpisodeHit:
    ep = stored.episode
    return EpisodeHit(
        **shown_fields(ep), snippet=ep.content[:SNIPPET], score=round(score, 6),
        signals=signals or {},
    )  # fmt: skip


def search_episodes(ctx: Context, req: SearchEpisodesRequest) -> SearchEpisodesResponse:
    flt = episode_filter(req)
    sort = req.sort
    # Ranked by concept: the tags asked for (a filter on labels alone ranks nothing).
    present = [
        f.concept_id
        for f in req.concept_filters
        if f.polarity is Polarity.PRESENT and f.role is not FilterRole.EXEMPLAR_LABEL
    ]
    text = (req.text_query or "").strip() or None
    relevance = sort.by is SortBy.RELEVANCE and bool(text or present)
    # How long the first page waited is no part of what the pages are.
    digest = cursors.digest(req.model_dump(mode="json", exclude={"page", "wait_for_embeddings_s"}))
    size = req.page.page_size
    position = (
        cursors.decode(req.page.cursor, digest, "page.cursor")
        if req.page.cursor is not None
        else None
    )
    if not relevance:
        return _ordered(ctx, req, flt, position, digest)
    # A later page keeps the first page's vector snapshot: it has nothing to wait for.
    if text and req.wait_for_embeddings_s is not None and position is None:
        missing = ctx.candidates.catch_up(req.wait_for_embeddings_s)
        if missing is not None:
            raise NotReady(
                f"wait_for_embeddings_s: {missing}; retry, wait longer, or leave it out to"
                " rank the episodes without vectors by their text",
                field="wait_for_embeddings_s",
            )
    if position is not None:
        snapshot, max_vseq, last_score, last_seq, now = _relevance_position(position)
    else:
        snapshot, max_vseq, last_score, last_seq = ctx.store.episode_max_seq(), None, None, None
        now = None
    flt.max_seq = snapshot
    ranking = Ranking(text, present, sort.score_weight, sort.recency_weight, max_vseq, now=now)
    ranked, explain = ranking.rank_explained(ctx, flt)
    if last_seq is not None:
        ranked = [(s, v) for s, v in ranked if (v, s) < (last_score, last_seq)]
    page = ranked[:size]
    found = ctx.store.episodes_by_seqs([s for s, _ in page])
    why = explain([s for s, _ in page])
    hits = [hit(found[s], v, why[s]) for s, v in page if s in found]
    next_cursor = None
    if len(ranked) > size:
        last = page[-1]
        next_cursor = cursors.encode(
            ["relevance", snapshot, ranking.max_vseq, last[1], last[0], ranking.now], digest
        )
    return SearchEpisodesResponse(episodes=hits, next_cursor=next_cursor)


def _relevance_position(
    position: list[Any],
) -> tuple[int, int | None, float, int, int | None]:
    try:
        # A cursor made before the moment was kept has 5 parts: recency from now, as then.
        kind, snapshot, max_vseq, score, seq, now = [*position, None][:6]
        assert kind == "relevance" and len(position) in (5, 6)
        vseq = None if max_vseq is None else int(max_vseq)
        return int(snapshot), vseq, float(score), int(seq), None if now is None else int(now)
    except (AssertionError, ValueError, TypeError):
        raise InvalidRequest(
            "cursor is malformed; pass the next_cursor of a previous page unchanged",
            field="page.cursor",
        ) from None


def _ordered(
    ctx: Context,
    req: SearchEpisodesRequest,
    flt: EpisodeFilter,
    position: list[Any] | None,
    digest: str,
) -> SearchEpisodesResponse:
    by = req.sort.by
    seed = req.sort.seed if by is SortBy.RANDOM else None
    descending = by is not SortBy.TIME_ASC
    after = None
    if position is not None:
        try:
            after = (int(position[0]), int(position[1]))
        except (ValueError, TypeError, IndexError):
            raise InvalidRequest(
                "cursor is malformed; pass the next_cursor of a previous page unchanged",
                field="page.cursor",
            ) from None
    size = req.page.page_size
    keys = ctx.store.episode_page(flt, after, size + 1, descending, seed)
    page = keys[:size]
    found = ctx.store.episodes_by_seqs([s for _, s in page])
    hits = [hit(found[s], 0.0) for _, s in page if s in found]
    next_cursor = cursors.encode(list(page[-1]), digest) if len(keys) > size else None
    return SearchEpisodesResponse(episodes=hits, next_cursor=next_cursor)


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="search_episodes",
        group="experience",
        request=SearchEpisodesRequest,
        response=SearchEpisodesResponse,
        handler=search_episodes,
        readonly=True,
        summary="Search episodes: concepts, text, time, kinds, labels; hybrid relevance.",
        cli_name="search",
        positional="text_query",
        example='xdb search "deploy failed" --namespace proj --episode-kinds incident',
    ),
)
