"""MCP tool profiles: which operations an MCP client is offered as tools, and how.

Every tool costs its client context on every request: the full set (``full``, every
operation an agent may run) lists 64 tools in about 185,000 characters of JSON (80,000
without the output schemas, ~20,000 tokens), and Cursor stops at about 40 tools. So ``xdb
mcp`` and ``/mcp`` serve a *profile*:

``agent`` (the default)
    At most 15 tools and 5,000 tokens: record, recall and the few operations an agent calls
    unprompted. Written for a model that has never heard of xdb: descriptions say what a tool
    is for in plain words (no internal vocabulary), the two graph walks are named apart
    (``xdb_concept_neighborhood``, ``experience_graph_neighborhood``), schemas carry no
    pydantic titles, no 64-bit bounds and no fields an agent has no use for (they are still
    accepted), and there is no output schema (every answer's text is its JSON).
``xdb`` / ``experience``
    The seeds' sets by their seed names: the 20 ``xdb.*`` tools of seed 002 and the 7
    ``experience.*`` tools of seed 000 (``seeds``: both).
``memcp``
    memcp's four, ``add_episode``, ``search_episodes``, ``get_episode`` and ``delete_episode``.
``full``
    Every operation of every group offered to agents, as before profiles.

A profile only chooses and words tools: every call still runs ``Database.run`` for the
caller, through the same validation and policy as every other interface.

Only the registry is imported here (no MCP SDK, no web framework): ``stdio``'s quick front
and the command line use the names without loading either.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from xdb.ops.catalog import REGISTRY, agent_groups, operations
from xdb.ops.registry import Operation

__all__ = [
    "DEFAULT",
    "PROFILES",
    "Profile",
    "Spec",
    "clean_schema",
    "estimate_tokens",
    "resolve",
    "specs",
]

# ``models.common.Model`` sets ``str_max_length=1 << 40`` so that pydantic checks every
# string in Rust (which refuses text that is not Unicode); the limit means nothing to a
# client, which would read it as a real constraint.
_NO_LIMIT = 1 << 40
_INT64 = (-(2**63), 2**63 - 1)


@dataclass(frozen=True)
class Offer:
    """One operation as a profile offers it."""

    op: str  # "group.name" in the registry
    # The name's operation part (the group stays): "concept_neighborhood" serves
    # xdb.graph_neighborhood as xdb_concept_neighborhood.
    rename: str | None = None
    description: str | None = None  # None: the operation's own
    # A request field -> its description in this profile, or None to leave it out of the
    # schema (the server still accepts it). "Def.field" is a field of the object ``Def``
    # of the schema's ``$defs``, and "Def." that object's own description.
    fields: Mapping[str, str | None] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Profile:
    name: str
    summary: str
    offers: tuple[Offer, ...] | None  # None: every operation of the agent's groups
    # Lean schemas: no titles, no 64-bit bounds, no null alternatives of optional fields, no
    # repeated description, no output schema.
    lean: bool = False


def _offers(*keys: str) -> tuple[Offer, ...]:
    return tuple(Offer(key) for key in keys)


_ACCESS = "access_policy_id"
_AGENT = (
    Offer(
        "xdb.record",
        description="Record one moment of your experience in the current session: a user "
        "input, your output, a tool call or its result. Give a tool call and its result the "
        "same event_id to keep them together.",
        fields={
            "concept_activations": "Concept id -> activation 0..1, when a probe reads them.",
            "token_id": None,
            "role": None,
            "timestamp": None,
            _ACCESS: None,
        },
    ),
    Offer(
        "xdb.tag",
        description="Label recorded moments so you can find them again (xdb_query tags=...): "
        "one timestep, every timestep of an event, or a tick range. A new name makes a tag.",
        fields={"source": None},
    ),
    Offer(
        "xdb.comment",
        description="Write a note about a timestep, an event, a tick range or, with no "
        "target, the whole session.",
        fields={_ACCESS: None},
    ),
    Offer(
        "xdb.query",
        description="Find recorded timesteps (the raw log of inputs, outputs and tool calls) "
        "by words, tags, event type, time, ticks or concept activations; oldest first, paged "
        "with next_cursor. For remembered episodes use experience_search_episodes.",
        fields={
            "include_records": "Also summaries standing in for old timesteps that were "
            "condensed to save space (default true).",
        },
    ),
    Offer(
        "xdb.recent",
        description="The last n timesteps of the current session, oldest first: what just "
        "happened.",
    ),
    Offer(
        "xdb.status",
        description="What is stored: counts of timesteps, tags, comments and episodes, the "
        "current session and tick, and the space used.",
    ),
    Offer(
        "xdb.find_concept",
        description="Look up a concept by name, alias or definition (typos are forgiven) to "
        "get the id that concept filters and tags take.",
    ),
    Offer(
        "xdb.graph_neighborhood",
        rename="concept_neighborhood",
        description="Walk the concept hierarchy (not your experience): the parents and/or "
        "children of the given concepts, nearest first.",
    ),
    Offer(
        "experience.add_episode",
        description="Remember something as an episode (a task, an incident, a decision, a "
        "conversation): found by its words at once and by its meaning within a second.",
        fields={
            "content": "What happened, in full.",
            "motive_profile": None,
            "labels": None,
            "provenance": None,
            _ACCESS: None,
            "ConceptTag.": "A concept the episode is about, scored 0..1.",
            "ConceptTag.kind": None,
        },
    ),
    Offer(
        "experience.search_episodes",
        description="Recall episodes by meaning and words (a question works), concepts, "
        "time, kind or namespace; best first, paged.",
        fields={
            "label_filters": None,
            "wait_for_embeddings_s": "Wait up to this many seconds for episodes added just "
            "now to be searchable by meaning.",
            "ConceptFilter.kind": None,
            "ConceptFilter.role": None,
            "Sort.seed": None,
        },
    ),
    Offer(
        "experience.get_episode_detail",
        description="One episode in full, with its neighbours in the experience graph if asked.",
    ),
    Offer(
        "experience.similar_episodes",
        description="Episodes like a given one: the same concepts, similar text, the same session.",
    ),
    Offer(
        "experience.graph_neighborhood",
        description="Walk your experience graph from some nodes: episodes, the concepts they "
        "carry, their timesteps, and the decisions and tools linked to them. For the concept "
        "hierarchy alone use xdb_concept_neighborhood.",
        fields={
            "seed_node_ids": "Ids of episodes, concepts (concept:<id>), decisions, tools or "
            "timesteps.",
        },
    ),
    Offer(
        "engine.add_lesson",
        description="Save a lesson after a mistake: the situation and what to do instead. "
        "Before a similar action later, it comes back as a warning.",
        fields={
            "tier": None,
            "source": None,
            "example_call": None,
            "fix_call": None,
            _ACCESS: None,
        },
    ),
)

# Seed 002 ("BE Remembering: Experience Tools", xdb namespace) and seed 000 (experience
# namespace), in their order.
_XDB_SEED = _offers(
    *(
        f"xdb.{name}"
        for name in (
            *("record", "tag", "create_tag", "comment", "query", "recent", "tags", "status"),
            *("concepts", "find_concept", "graph_neighborhood"),
            *("buds", "bud_examples", "bud_ready"),
            *("pin", "unpin", "quota", "context", "compact", "maintenance"),
        )
    )
)
_EXPERIENCE_SEED = _offers(
    *(
        f"experience.{name}"
        for name in (
            *("search_episodes", "get_episode_detail", "graph_neighborhood", "similar_episodes"),
            *("concept_usage_summary", "build_dataset", "list_candidate_concepts"),
        )
    )
)

PROFILES: Mapping[str, Profile] = MappingProxyType(
    {
        "agent": Profile(
            "agent",
            "record, recall and what an agent calls unprompted",
            _AGENT,
            lean=True,
        ),
        "xdb": Profile("xdb", "seed 002's xdb.* tools", _XDB_SEED),
        "experience": Profile("experience", "seed 000's experience.* tools", _EXPERIENCE_SEED),
        "seeds": Profile("seeds", "both seeds' sets", _XDB_SEED + _EXPERIENCE_SEED),
        "memcp": Profile(
            "memcp",
            "memcp's four episode tools",
            _offers(
                "memcp.add_episode",
                "memcp.search_episodes",
                "memcp.get_episode",
                "memcp.delete_episode",
            ),
        ),
        "full": Profile("full", "every operation offered to agents", None),
    }
)
DEFAULT = "agent"


@dataclass(frozen=True)
class Spec:
    """A tool as served: its operation, name, description and schemas."""

    op: Operation[Any, Any]
    name: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None
    lean: bool = False  # the agent profile's: annotations say only what applies


def resolve(profile: str | None, groups: set[str] | None) -> tuple[Profile | None, set[str] | None]:
    """The profile to serve (None with ``groups``: every operation of those groups), checked.

    Neither named: the default profile. Both: refused (a profile already chooses its tools).
    """
    if profile is not None and groups is not None:
        raise ValueError("name a profile or groups of tools, not both")
    if groups is not None:
        return None, groups
    name = DEFAULT if profile is None else profile
    if name not in PROFILES:
        raise ValueError(f"unknown MCP profile {name!r}; known: {', '.join(PROFILES)}")
    return PROFILES[name], None


def specs(
    profile: str | None = None, groups: set[str] | None = None, dotted: bool = False
) -> list[Spec]:
    """The tools of ``profile`` (default: ``DEFAULT``), or of every operation of ``groups``."""
    chosen, groups = resolve(profile, groups)
    if chosen is None or chosen.offers is None:
        wanted = agent_groups() if groups is None else groups
        offers: Iterable[Offer] = (Offer(f"{op.group}.{op.name}") for op in operations(wanted))
    else:
        offers = chosen.offers
    lean = chosen is not None and chosen.lean
    return [_spec(offer, dotted, lean) for offer in offers]


def _spec(offer: Offer, dotted: bool, lean: bool) -> Spec:
    op = REGISTRY[offer.op]
    if offer.rename is None:
        name = op.tool_name(dotted)
    else:
        name = f"{op.group}{'.' if dotted else '_'}{offer.rename}"
    description = offer.description or op.description
    request = clean_schema(op.request.model_json_schema())
    request.setdefault("type", "object")  # MCP wants an object at the root; say so always
    if not lean:
        response = clean_schema(op.response.model_json_schema(mode="serialization"))
        response.setdefault("type", "object")
        return Spec(op, name, description, request, response)
    for key, text in offer.fields.items():
        _reword(request, key, text, offer.op)
    request.pop("description", None)  # the tool's description says it
    return Spec(op, name, description, _prune_defs(_lean(request)), None, lean=True)


def _reword(schema: dict[str, Any], key: str, text: str | None, op: str) -> None:
    """Set (or, None, drop) the description of field ``key`` of ``schema``, or leave the
    field out (``Offer.fields``)."""
    where, _, name = key.rpartition(".")
    holder = schema.get("$defs", {}).get(where) if where else schema
    if holder is None or (name and name not in holder.get("properties", {})):
        raise ValueError(f"{op}: no request field {key!r}")
    if not name:  # "Def.": the object's own description
        holder.pop("description", None)
        if text is not None:
            holder["description"] = text
    elif text is not None:
        holder["properties"][name]["description"] = text
    elif name in holder.get("required", ()):
        raise ValueError(f"{op}: a required field ({key}) cannot be left out")
    else:
        del holder["properties"][name]


def clean_schema(schema: Any) -> Any:
    """``schema`` without the string limit every request model carries (``_NO_LIMIT``)."""
    if isinstance(schema, dict):
        return {
            key: clean_schema(value)
            for key, value in schema.items()
            if not (key == "maxLength" and value == _NO_LIMIT)
        }
    if isinstance(schema, list):
        return [clean_schema(item) for item in schema]
    return schema


# Keywords whose value maps names to schemas (the names are no keywords themselves).
_NAMED = ("properties", "$defs", "patternProperties", "dependentSchemas")
# Keywords whose value is data, not a schema.
_DATA = ("default", "const", "enum", "examples", "required")


def _lean(schema: Any) -> Any:
    """The schema without what tells a model nothing: pydantic's titles, the bounds of a
    64-bit integer, empty ``propertyNames``, and the null alternative of an optional field
    (left out, it is None)."""
    if isinstance(schema, list):
        return [_lean(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _NAMED and isinstance(value, dict):
            out[key] = {name: _lean(sub) for name, sub in value.items()}
        elif key in _DATA:
            out[key] = value
        elif not _noise(key, value):
            out[key] = _lean(value)
    alternatives = out.get("anyOf")
    if "default" in out and out["default"] is None and isinstance(alternatives, list):
        rest = [a for a in alternatives if a != {"type": "null"}]
        if len(rest) < len(alternatives):
            del out["default"]
            if len(rest) == 1:
                del out["anyOf"]
                out = {**rest[0], **out}
            else:
                out["anyOf"] = rest
    return out


def _noise(key: str, value: Any) -> bool:
    if key == "title":
        return isinstance(value, str)
    if key == "propertyNames":
        return isinstance(value, dict) and not value
    return (key, value) in (("minimum", _INT64[0]), ("maximum", _INT64[1]))


def _prune_defs(schema: dict[str, Any]) -> dict[str, Any]:
    """Drop the ``$defs`` no longer referenced (a left-out field may have been the last)."""
    defs = schema.get("$defs")
    if not defs:
        return schema
    used: set[str] = set()
    todo = [{k: v for k, v in schema.items() if k != "$defs"}]
    while todo:
        text = json.dumps(todo.pop())
        for name in defs:
            if name not in used and f'"#/$defs/{name}"' in text:
                used.add(name)
                todo.append(defs[name])
    kept = {name: sub for name, sub in defs.items() if name in used}
    if kept:
        return {**schema, "$defs": kept}
    return {k: v for k, v in schema.items() if k != "$defs"}


def estimate_tokens(listing: Mapping[str, Any]) -> int:
    """The tokens a ``tools/list`` result costs a client's context, estimated as one per four
    characters of its compact JSON (no tokenizer: the count is the same everywhere; JSON
    usually tokenizes a little denser than prose, so read it as a floor)."""
    text = json.dumps(listing, separators=(",", ":"), ensure_ascii=False)
    return math.ceil(len(text) / 4)
