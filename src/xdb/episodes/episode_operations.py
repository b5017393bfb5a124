"""Episodes: add, delete, detail with graph neighbours, and "episodes like this one"."""

from __future__ import annotations

from typing import Any

from xdb.episodes.episode_models import (
    AddEpisodeRequest,
    AddEpisodeResponse,
    DeleteEpisodeRequest,
    DeleteEpisodeResponse,
    Episode,
    ExemplarLabel,
    GetEpisodeDetailRequest,
    GetEpisodeDetailResponse,
    GraphNeighbors,
    Provenance,
    Relation,
    SimilarEpisode,
    SimilarEpisodesRequest,
    SimilarEpisodesResponse,
)
from xdb.episodes.episode_search import hit, shown_fields
from xdb.episodes.experience_graph import graph_edges, graph_nodes, walk
from xdb.episodes.ranking import Ranking
from xdb.errors import NotFound
from xdb.ids import new_id
from xdb.ops.registry import Context, Operation
from xdb.policy.access_rules import check_create, may_delete
from xdb.store.episode_row import episode_row
from xdb.store.types import EpisodeFilter, NewEpisode, StoredEpisode
from xdb.timeutil import from_us, now_us

MAX_NEIGHBOUR_NODES = 200


def new_episode(ctx: Context, req: AddEpisodeRequest) -> NewEpisode:
    return episode_row(
        req, episode_id=new_id("episode"), created_us=now_us(), created_by=ctx.caller.id
    )


def add_episode(ctx: Context, req: AddEpisodeRequest) -> AddEpisodeResponse:
    check_create(ctx, req.access_policy_id, "add_episode")
    episode = new_episode(ctx, req)
    episode.access_policy_id = req.access_policy_id
    ctx.store.add_episode(episode)
    if ctx.indexer is not None:
        ctx.indexer.notify()  # embedding happens off this call's path
    return AddEpisodeResponse(episode_id=episode.id, created_at=from_us(episode.created_us))


def delete_episode(ctx: Context, req: DeleteEpisodeRequest) -> DeleteEpisodeResponse:
    # One the caller may not read is as missing as one that never was.
    if not may_delete(ctx, "episode", (req.episode_id,), "delete_episode"):
        return DeleteEpisodeResponse(episode_id=req.episode_id, deleted=False)
    seq = ctx.store.delete_episode(req.episode_id)
    if seq is not None and ctx.indexer is not None:
        ctx.indexer.forget(seq)
    return DeleteEpisodeResponse(episode_id=req.episode_id, deleted=seq is not None)


def load(ctx: Context, episode_id: str, field: str = "episode_id") -> StoredEpisode:
    found: StoredEpisode | None = ctx.store.episodes_by_ids([episode_id]).get(episode_id)
    if found is None:
        raise NotFound(f"unknown episode {episode_id!r}", field=field)
    return found


def full(ctx: Context, stored: StoredEpisode) -> Episode:
    ep = stored.episode
    before, after = ctx.store.episode_neighbours(stored.seq)
    return Episode(
        **shown_fields(ep),
        content=ep.content,
        metadata=ep.metadata,
        labels=[ExemplarLabel.model_validate(lb) for lb in ep.labels],
        provenance=Provenance.model_validate(ep.provenance),
        previous_episode_id=before,
        next_episode_id=after,
        created_at=from_us(ep.created_us),
    )


def get_episode_detail(ctx: Context, req: GetEpisodeDetailRequest) -> GetEpisodeDetailResponse:
    stored = load(ctx, req.episode_id)
    options = req.include_graph_neighbors
    if options is None:
        graph = GraphNeighbors(nodes=[], edges=[])
    else:
        # The same walk as experience_graph_neighborhood, seeded with this episode.
        relations = {r.value for r in (options.relation_filters or Relation)}
        found = walk(
            ctx,
            [stored.episode.id],
            max_depth=options.depth,
            relations=relations,
            node_types=None,
            outgoing=True,
            incoming=True,
            max_nodes=MAX_NEIGHBOUR_NODES,
        )
        graph = GraphNeighbors(nodes=graph_nodes(ctx, found), edges=graph_edges(found))
    return GetEpisodeDetailResponse(episode=full(ctx, stored), graph_neighbors=graph)


def similar_episodes(ctx: Context, req: SimilarEpisodesRequest) -> SimilarEpisodesResponse:
    """Rank by the seed's text (BM25 + vector) and its top ``concept_k`` concepts, weighted
    equally; the seed's session neighbours (NEXT) are graph context and get a small lift."""
    seed = load(ctx, req.seed_episode_id, "seed_episode_id")
    ep = seed.episode
    # Only concepts the caller may see rank anything (the seed's session: hush there).
    seen = [
        t
        for t in ep.concept_tags
        if ctx.view.visible(t["concept_id"], t.get("kind") == "candidate", ep.session_id)
    ]
    top = sorted(seen, key=lambda t: (-t["score"], t["concept_id"]))[: req.concept_k]
    concepts = [t["concept_id"] for t in top]
    ranking = Ranking(f"{ep.summary}\n{ep.content[:2000]}", concepts, 0.5, 0.0)
    flt = EpisodeFilter(namespace=req.namespace or ep.namespace)
    ranked = dict(ranking.rank(ctx, flt, exclude={seed.seq} if req.exclude_seed else None))
    before, after = ctx.store.episode_neighbours(seed.seq)
    neighbours = ctx.store.episodes_by_ids([i for i in (before, after) if i])
    for other in neighbours.values():
        ranked[other.seq] = min(1.0, ranked.get(other.seq, 0.0) + 0.1)
    if not req.exclude_seed:
        ranked[seed.seq] = 1.0  # and first, even where a neighbour's lift ties it
    best = sorted(ranked.items(), key=lambda item: (item[0] != seed.seq, -item[1], -item[0]))
    best = best[: req.max_results]
    found = ctx.store.episodes_by_seqs([s for s, _ in best])
    wanted = set(concepts)
    out = [
        SimilarEpisode(
            episode_id=found[s].episode.id,
            summary=found[s].episode.summary,
            similarity_score=round(v, 6),
            concept_overlap=[
                t["concept_id"] for t in found[s].episode.concept_tags if t["concept_id"] in wanted
            ],
        )
        for s, v in best
        if s in found
    ]
    return SimilarEpisodesResponse(seed_episode=hit(seed, 1.0), neighbors=out)


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="add_episode",
        group="experience",
        request=AddEpisodeRequest,
        response=AddEpisodeResponse,
        handler=add_episode,
        readonly=False,
        summary="Store an episode (embedded in the background).",
        positional="content",
        example='xdb add-episode "Rolled back the deploy" --kind incident --namespace proj',
    ),
    Operation(
        name="delete_episode",
        group="experience",
        request=DeleteEpisodeRequest,
        response=DeleteEpisodeResponse,
        handler=delete_episode,
        readonly=False,
        summary="Delete an episode (no error when it does not exist).",
        example=(
            'EPISODE=$(xdb search deploy | python3 -c "import json, sys;'
            " print(json.load(sys.stdin)['episodes'][0]['episode_id'])\")\n"
            'xdb delete-episode --episode-id "$EPISODE"'
        ),
        destructive=True,
        idempotent=True,  # deleting what is gone changes nothing
    ),
    Operation(
        name="get_episode_detail",
        group="experience",
        request=GetEpisodeDetailRequest,
        response=GetEpisodeDetailResponse,
        handler=get_episode_detail,
        readonly=True,
        summary="One episode in full, with graph neighbours.",
        example=(
            'EPISODE=$(xdb search deploy | python3 -c "import json, sys;'
            " print(json.load(sys.stdin)['episodes'][0]['episode_id'])\")\n"
            'xdb get-episode-detail --episode-id "$EPISODE"'
        ),
    ),
    Operation(
        name="similar_episodes",
        group="experience",
        request=SimilarEpisodesRequest,
        response=SimilarEpisodesResponse,
        handler=similar_episodes,
        readonly=True,
        summary="Episodes like a seed episode.",
        example=(
            'EPISODE=$(xdb search deploy | python3 -c "import json, sys;'
            " print(json.load(sys.stdin)['episodes'][0]['episode_id'])\")\n"
            'xdb similar-episodes --seed-episode-id "$EPISODE"'
        ),
    ),
)
