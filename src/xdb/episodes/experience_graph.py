"""The one experience graph: a breadth-first walk shared by every graph view, the
``graph_neighborhood`` operation, and adding Decision and Tool nodes and links.

The walk expands one level at a time (one ``graph_edges`` call per level), so it stops as
soon as a level would pass ``max_nodes`` instead of computing everything within
``max_depth`` first. New nodes of a level are taken in id order: the same graph and request
give the same answer, on either store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from xdb.concepts.resolve import try_resolve
from xdb.episodes.episode_models import GraphEdge, GraphNode, Relation
from xdb.episodes.graph_models import (
    AddNodeRequest,
    AddNodeResponse,
    GraphNeighborhoodRequest,
    GraphNeighborhoodResponse,
    LinkRequest,
    LinkResponse,
    WalkDirection,
)
from xdb.errors import InvalidRequest, NotFound
from xdb.ids import new_id
from xdb.ops.registry import Context, Operation
from xdb.policy.access_rules import check_create
from xdb.store.graph_edges import CONCEPT_NODE, node_type
from xdb.store.types import GraphEdgeRow
from xdb.timeutil import now_us


@dataclass
class Walk:
    depth: dict[str, int] = field(default_factory=dict)  # node -> distance, in visiting order
    edges: list[GraphEdgeRow] = field(default_factory=list)
    truncated: bool = False


def walk(
    ctx: Context,
    seeds: list[str],
    *,
    max_depth: int,
    relations: set[str],
    node_types: set[str] | None,
    outgoing: bool,
    incoming: bool,
    max_nodes: int,
) -> Walk:
    """Breadth-first from ``seeds``: each level's new nodes in id order, until ``max_depth``
    or ``max_nodes``. Edges are those found while walking that join two nodes returned."""
    result = Walk()
    for seed in sorted(set(seeds))[:max_nodes]:
        result.depth[seed] = 0
    result.truncated = len(set(seeds)) > max_nodes
    found: set[GraphEdgeRow] = set()
    frontier = list(result.depth)
    level = 0
    while frontier and level < max_depth and not result.truncated:
        level += 1
        current = set(frontier)
        fresh: set[str] = set()
        # Of a concept's episodes, only the smallest ids can be taken: a level takes at most
        # `room` new nodes in id order, and at most len(depth) of the smallest are known.
        # (With a type filter, excluded ids could fill that window: no shortcut then.)
        room = max_nodes - len(result.depth)
        # A caller who may not see some concepts never walks through them; their nodes
        # could fill that window too.
        restricted = ctx.view.restricted
        # Nor through objects it may not read (access policies): stored edges and an
        # episode's CONTAINS may reach them, so each level keeps only the nodes that exist
        # for it (the store reads through its views).
        hiding = ctx.store.reading is not None
        first = None if node_types is not None or restricted or hiding else room + len(result.depth)
        found_now = ctx.store.graph_edges(
            frontier, relations, outgoing, incoming, first, list(result.depth)
        )
        for edge in found_now:
            found.add(edge)
            ends = []
            if outgoing and edge.src in current:
                ends.append(edge.dst)
            if incoming and edge.dst in current:
                ends.append(edge.src)
            for other in ends:
                if (
                    other not in result.depth
                    and (node_types is None or node_type(other) in node_types)
                    and (not restricted or ctx.view.node_visible(other))
                ):
                    fresh.add(other)
        if hiding and fresh:
            readable = ctx.store.describe_nodes(sorted(fresh))
            fresh = {n for n in fresh if n in readable or node_type(n) == "Concept"}
        ordered = sorted(fresh)
        if len(ordered) > room:
            ordered, result.truncated = ordered[:room], True
        for node in ordered:
            result.depth[node] = level
        frontier = ordered
    result.edges = sorted(e for e in found if e.src in result.depth and e.dst in result.depth)
    return result


def resolve_nodes(ctx: Context, values: list[str], field_name: str) -> list[str]:
    """Node ids for what a user wrote: an episode, decision, tool or timestep id as it is; a
    concept as ``concept:<id>`` or any form of its id (full, Term, Term:layer)."""
    known = ctx.store.describe_nodes(values)
    out = []
    for value in values:
        node = value
        if value not in known:
            raw = value[len(CONCEPT_NODE) :] if value.startswith(CONCEPT_NODE) else value
            full = try_resolve(ctx.store, raw, field_name, ctx.sees)
            node = CONCEPT_NODE + (full or raw)
            if full is None and node not in ctx.store.describe_nodes([node]):
                node = ""
        # A concept the caller may not see (a bud, a free-form or hidden pack concept) is
        # as unknown as one no one ever named.
        if not node or (ctx.view.restricted and not ctx.view.node_visible(node)):
            raise NotFound(
                f"{field_name}: no episode, concept, decision, tool or timestep {value!r}",
                field=field_name,
            )
        out.append(node)
    return out


def graph_nodes(ctx: Context, result: Walk) -> list[GraphNode]:
    described = ctx.store.describe_nodes(list(result.depth))
    episodes = [n for n in result.depth if described.get(n, ("", None))[0] == "Episode"]
    # Compressed experience says its level (a COLD record); every other episode is full.
    levels = {r.id: r.level for r in ctx.store.memory_records_by_ids(episodes).values()}
    nodes = []
    for node, depth in result.depth.items():
        kind, text = described.get(node, (node_type(node), None))
        concept = node[len(CONCEPT_NODE) :] if kind == "Concept" else None
        nodes.append(
            GraphNode(
                node_id=node,
                type=kind,  # describe_nodes gives one of NodeType
                episode_id=node if kind == "Episode" else None,
                concept_id=concept,
                name=text if kind in ("Concept", "Decision", "Tool") else None,
                summary=text if kind in ("Episode", "Timestep") else None,
                depth=depth,
                fidelity=levels.get(node, "full") if kind == "Episode" else None,
            )
        )
    return nodes


def graph_edges(result: Walk) -> list[GraphEdge]:
    return [GraphEdge(src=e.src, dst=e.dst, type=Relation(e.relation)) for e in result.edges]


def graph_neighborhood(ctx: Context, req: GraphNeighborhoodRequest) -> GraphNeighborhoodResponse:
    seeds = resolve_nodes(ctx, list(req.seed_node_ids), "seed_node_ids")
    relations = {r.value for r in (req.relation_filters or Relation)}
    result = walk(
        ctx,
        seeds,
        max_depth=req.max_depth,
        relations=relations,
        node_types=None if req.node_type_filters is None else set(req.node_type_filters),
        outgoing=req.direction != WalkDirection.INCOMING,
        incoming=req.direction != WalkDirection.OUTGOING,
        max_nodes=req.max_nodes,
    )
    return GraphNeighborhoodResponse(
        nodes=graph_nodes(ctx, result), edges=graph_edges(result), truncated=result.truncated
    )


def add_node(ctx: Context, req: AddNodeRequest) -> AddNodeResponse:
    check_create(ctx, req.access_policy_id, "add_node")
    node_id = f"tool:{req.name}" if req.node_type == "Tool" else new_id("decision")
    created = ctx.store.add_graph_node(
        node_id,
        req.node_type,
        req.name,
        req.namespace,
        req.metadata,
        now_us(),
        ctx.caller.id,
        req.access_policy_id,
    )
    return AddNodeResponse(node_id=node_id, created=created)


def link(ctx: Context, req: LinkRequest) -> LinkResponse:
    src, dst = (
        resolve_nodes(ctx, [v], name)[0] for v, name in ((req.src, "src"), (req.dst, "dst"))
    )
    if src == dst:
        raise InvalidRequest(
            "dst: a node cannot be linked to itself; give another node", field="dst"
        )
    if req.relation == "RELATED_CONCEPT" and not (node_type(src) == node_type(dst) == "Concept"):
        raise InvalidRequest(
            "relation: RELATED_CONCEPT links two concepts; use INFLUENCED_BY or CONTAINS",
            field="relation",
        )
    check_create(ctx, req.access_policy_id, "link")
    created = ctx.store.add_graph_edge(
        GraphEdgeRow(src, req.relation, dst),
        req.note,
        now_us(),
        ctx.caller.id,
        req.access_policy_id,
    )
    return LinkResponse(src=src, dst=dst, relation=Relation(req.relation), created=created)


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="graph_neighborhood",
        group="experience",
        request=GraphNeighborhoodRequest,
        response=GraphNeighborhoodResponse,
        handler=graph_neighborhood,
        readonly=True,
        summary="Walk the experience graph around seed nodes.",
        example=(
            'EPISODE=$(xdb search deploy | python3 -c "import json, sys;'
            " print(json.load(sys.stdin)['episodes'][0]['episode_id'])\")\n"
            'xdb graph-neighborhood --seed-node-ids "$EPISODE" --max-depth 2'
        ),
    ),
    Operation(
        name="add_node",
        group="experience",
        request=AddNodeRequest,
        response=AddNodeResponse,
        handler=add_node,
        readonly=False,
        summary="Add a Decision or Tool node to the experience graph.",
        example='xdb add-node --node-type Decision --name "roll back"',
    ),
    Operation(
        name="link",
        group="experience",
        request=LinkRequest,
        response=LinkResponse,
        handler=link,
        readonly=False,
        summary="Link two graph nodes (e.g. a decision INFLUENCED_BY an episode).",
        example=(
            'TS=$(xdb recent -n 1 | python3 -c "import json, sys;'
            " print(json.load(sys.stdin)['timesteps'][0]['id'])\")\n"
            'EPISODE=$(xdb search deploy | python3 -c "import json, sys;'
            " print(json.load(sys.stdin)['episodes'][0]['episode_id'])\")\n"
            'xdb link --src "$TS" --dst "$EPISODE"'
        ),
    ),
)
