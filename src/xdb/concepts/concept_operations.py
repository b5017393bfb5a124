"""Concept packs and the concept tools: import, browse, get, find, and the hierarchy walk."""

from __future__ import annotations

from typing import Any

from xdb.concepts import concept_views
from xdb.concepts.concept_models import (
    Concept,
    ConceptEdge,
    ConceptMatch,
    ConceptNeighborhoodRequest,
    ConceptNeighborhoodResponse,
    ConceptNode,
    ConceptPack,
    ConceptPacksRequest,
    ConceptPacksResponse,
    ConceptsRequest,
    ConceptsResponse,
    ConceptSummary,
    Direction,
    FindConceptRequest,
    FindConceptResponse,
    GetConceptRequest,
    GetConceptResponse,
    ImportConceptsRequest,
    ImportConceptsResponse,
)
from xdb.concepts.pack import read_pack
from xdb.concepts.resolve import finder, pack_specs, resolve
from xdb.ops.registry import Context, Operation
from xdb.paths import place, root_of
from xdb.timeutil import from_us, now_us


def import_concepts(ctx: Context, req: ImportConceptsRequest) -> ImportConceptsResponse:
    data_root = root_of(ctx.settings)
    directory = place(data_root, "path", req.path)  # xdb.paths, as each file read below
    pack = read_pack(directory, lambda file: place(data_root, "path", str(file)))
    pack.info.imported_us = now_us()
    created = ctx.store.import_concept_pack(pack.info, pack.concepts, pack.related, ctx.caller.id)
    return ImportConceptsResponse(
        spec_id=pack.info.spec_id,
        created=created,
        concept_count=len(pack.concepts),
        relation_count=len(pack.related),
    )


def concept_packs(ctx: Context, req: ConceptPacksRequest) -> ConceptPacksResponse:
    packs = ctx.store.concept_packs()
    counts = {p.spec_id: p.concept_count for p in packs}
    if ctx.view.restricted:
        # A pack counts the concepts the caller may see; one it sees none of is not listed.
        counts = {}
        for cid in ctx.view.hierarchy()[0]:
            spec = ctx.view.index.facts[cid].spec_id
            counts[spec] = counts.get(spec, 0) + 1
    return ConceptPacksResponse(
        packs=[
            ConceptPack(
                spec_id=p.spec_id,
                pack_id=p.pack_id,
                version=p.version,
                description=p.description,
                concept_count=counts[p.spec_id],
                imported_at=from_us(p.imported_us),
            )
            for p in packs
            if p.spec_id in counts
        ]
    )


def concepts(ctx: Context, req: ConceptsRequest) -> ConceptsResponse:
    parent = (
        None if req.parent_id is None else resolve(ctx.store, req.parent_id, "parent_id", ctx.sees)
    )
    specs = pack_specs(ctx.store, req.pack)
    if ctx.view.restricted:
        rows, total, child_counts, parents = concept_views.children(ctx, parent, specs, req.limit)
    else:
        rows, total = ctx.store.concept_children(parent, specs, req.limit)
        child_counts = {r.id: r.child_count for r in rows}
        parents = {r.id: r.parent_id for r in rows}
    ids = [r.id for r in rows]
    counts = ctx.store.concept_episode_counts(ids)
    rolled = concept_views.subtree_counts(ctx, ids)
    return ConceptsResponse(
        concepts=[
            ConceptSummary(
                id=r.id,
                name=r.term,
                parent_id=parents[r.id],
                layer=r.layer,
                child_count=child_counts[r.id],
                episode_count=counts.get(r.id, 0),
                summed_episode_count=rolled.get(r.id, 0),
            )
            for r in rows
        ],
        total_count=total,
    )


def get_concept(ctx: Context, req: GetConceptRequest) -> GetConceptResponse:
    cid = resolve(ctx.store, req.concept_id, "concept_id", ctx.sees)
    (row,) = ctx.store.concepts_by_ids([cid])
    if ctx.view.restricted:  # the hierarchy as the caller sees it (concept_views)
        parents, kids = ctx.view.hierarchy()
        facts = ctx.view.index.facts
        parent = parents.get(cid)
        children = sorted(kids.get(cid, []), key=lambda c: (facts[c].term, c))
    else:
        parent = row.parent_id
        children = [c.id for c in ctx.store.concept_children(cid, None, 10_000)[0]]
    details = dict(row.details)
    relations: dict[str, Any] = details.pop("relationships", None) or {}
    # The pack's raw details name other concepts, in lists and in prose: a caller who may
    # not see every concept gets the typed fields alone (filtered on release).
    shown = {} if ctx.view.restricted else {**details, "relationships": relations}
    return GetConceptResponse(
        concept=Concept(
            id=row.id,
            name=row.term,
            pack=row.spec_id,
            layer=row.layer,
            parent_id=parent,
            children=children,
            domain=row.domain,
            definition=row.definition,
            aliases=row.aliases,
            related=list(relations.get("related", [])),
            antonyms=list(relations.get("antonyms", [])),
            has_part=list(relations.get("has_part", [])),
            part_of=list(relations.get("part_of", [])),
            risk_level=row.risk_level,
            treaty_relevant=row.treaty_relevant,
            harness_relevant=row.harness_relevant,
            episode_count=ctx.store.concept_episode_counts([cid]).get(cid, 0),
            summed_episode_count=concept_views.subtree_counts(ctx, [cid]).get(cid, 0),
            details=shown,
        )
    )


def find_concept(ctx: Context, req: FindConceptRequest) -> FindConceptResponse:
    specs = pack_specs(ctx.store, req.pack)
    keep = ctx.view.visible if ctx.view.restricted else None
    found = finder(ctx.store).find(
        req.query, req.limit, None if specs is None else set(specs), keep
    )
    return FindConceptResponse(
        matches=[
            ConceptMatch(
                id=f.entry.id,
                name=f.entry.term,
                score=f.score,
                matched=f.matched,
                layer=f.entry.layer,
                definition=f.entry.definition,
            )
            for f in found
        ]
    )


def graph_neighborhood(
    ctx: Context, req: ConceptNeighborhoodRequest
) -> ConceptNeighborhoodResponse:
    """The concept view of the one graph: CHILD_OF edges only, up (ancestors), down
    (descendants) or both. One recursive CTE (``store.concepts.walk``) finds every concept in
    reach; it is cut and its edges chosen exactly as the graph's breadth-first walk would
    (``episodes.experience_graph.walk``): nearest first, ties by id, and the edges found
    from the nodes it expanded."""
    seeds = sorted({resolve(ctx.store, s, "seed_ids", ctx.sees) for s in req.seed_ids})
    up = req.direction in (Direction.BOTH, Direction.ANCESTORS)
    down = req.direction in (Direction.BOTH, Direction.DESCENDANTS)
    if ctx.view.restricted:
        found = concept_views.walk(ctx, seeds, req.max_depth, up, down)
    else:
        found = ctx.store.concept_walk(seeds, req.max_depth, up, down)
    reached = sorted(found, key=lambda s: (s.depth, s.id))
    kept = reached[: req.max_nodes]
    truncated = len(reached) > req.max_nodes
    # The walk expands every node above the level it stopped at: max_depth, or the level
    # that would have passed max_nodes.
    stop = reached[req.max_nodes].depth if truncated else req.max_depth
    depth = {s.id: s.depth for s in kept}
    edges = sorted(
        (s.id, s.parent_id)
        for s in kept
        if s.parent_id in depth
        and ((up and s.depth < stop) or (down and depth[s.parent_id] < stop))
    )
    return ConceptNeighborhoodResponse(
        nodes=[ConceptNode(id=s.id, name=s.term, depth=s.depth) for s in kept],
        edges=[ConceptEdge(source=child, target=parent) for child, parent in edges],
        truncated=truncated,
    )


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="import_concepts",
        group="xdb",
        request=ImportConceptsRequest,
        response=ImportConceptsResponse,
        handler=import_concepts,
        readonly=False,
        summary="Load a concept pack (HatCat format) from a directory.",
        cli_name="",  # `xdb concepts import DIR` (interfaces.cli)
    ),
    Operation(
        name="concept_packs",
        group="xdb",
        request=ConceptPacksRequest,
        response=ConceptPacksResponse,
        handler=concept_packs,
        readonly=True,
        summary="List the concept packs loaded.",
        http_get=("/v1/xdb/concept-packs",),
        example="xdb concept-packs",
    ),
    Operation(
        name="concepts",
        group="xdb",
        request=ConceptsRequest,
        response=ConceptsResponse,
        handler=concepts,
        readonly=True,
        summary="Browse the concept hierarchy: roots, or a parent's children, with counts.",
        # The XAPI names the caller's session in the GET path; concepts are the same for all.
        http_get=("/v1/xdb/concepts", "/v1/xdb/concepts/{session_id}"),
        example="xdb concepts --parent-id Deception",
    ),
    Operation(
        name="get_concept",
        group="xdb",
        request=GetConceptRequest,
        response=GetConceptResponse,
        handler=get_concept,
        readonly=True,
        summary="One concept in full: definition, aliases, relations, safety tags.",
        example="xdb get-concept --concept-id Deception:2",
    ),
    Operation(
        name="find_concept",
        group="xdb",
        request=FindConceptRequest,
        response=FindConceptResponse,
        handler=find_concept,
        readonly=True,
        summary="Search concepts by name, alias and definition (typo-tolerant).",
        http_get=("/v1/xdb/find-concept", "/v1/xdb/find-concept/{session_id}"),
        positional="query",
        example="xdb find-concept decepton",
    ),
    Operation(
        name="graph_neighborhood",
        group="xdb",
        request=ConceptNeighborhoodRequest,
        response=ConceptNeighborhoodResponse,
        handler=graph_neighborhood,
        readonly=True,
        summary="Walk the concept hierarchy from seed concepts.",
        cli_name="concept-neighborhood",
        method="concept_neighborhood",
        example="xdb concept-neighborhood --seed-ids Dancing --direction ancestors",
    ),
)
