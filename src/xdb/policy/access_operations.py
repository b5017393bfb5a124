"""Managing access policies (docs/policy.md): define one, choose the database's default,
and put objects under one. Admins only, like the rest of the policy group; removing one is
``remove_policy`` (refused while objects or the default use it)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, model_validator

from xdb.errors import InvalidRequest, NotFound
from xdb.ids import parse_timestep_id
from xdb.models.common import DeferredModel, Model, NonEmpty
from xdb.models.concept_markers import NoConcept
from xdb.ops.registry import Context, Operation
from xdb.policy.access_rules import DEFAULT_KIND, policy_named
from xdb.policy.policy_models import AccessPolicy
from xdb.policy.policy_operations import PolicyObjectResponse, _manage, _put
from xdb.timeutil import now_us


class SetDefaultAccessPolicyRequest(Model):
    """Choose the access policy of every object stored without one (null: the built-in
    open default: every caller reads, self and admin write)."""

    policy_id: NonEmpty | None = None


class SetDefaultAccessPolicyResponse(DeferredModel):
    policy_id: str | None


# An admin's request (the policy group), never released to a restricted caller.
Node = Annotated[NonEmpty, NoConcept()]


class Edge(Model):
    src: Node
    relation: NonEmpty
    dst: Node


class AssignAccessPolicyRequest(Model):
    """Put objects under an access policy (null: back to the database's default). Every
    object named must exist, or nothing changes."""

    policy_id: NonEmpty | None = Field(description="The access policy; null: the default.")
    timestep_ids: list[NonEmpty] = Field(default_factory=list)
    session_ids: list[NonEmpty] = Field(
        default_factory=list, description="Every timestep of these sessions."
    )
    episode_ids: list[NonEmpty] = Field(default_factory=list)
    tag_ids: list[NonEmpty] = Field(default_factory=list)
    comment_ids: list[NonEmpty] = Field(default_factory=list)
    node_ids: Annotated[list[NonEmpty], NoConcept()] = Field(
        default_factory=list, description="Decision and Tool nodes."
    )
    edges: list[Edge] = Field(default_factory=list, description="Stored graph edges.")

    @model_validator(mode="after")
    def _names_some(self) -> AssignAccessPolicyRequest:
        if not any(self._keys().values()):
            raise ValueError(
                "name at least one object: timestep_ids, session_ids, episode_ids, tag_ids,"
                " comment_ids, node_ids or edges"
            )
        return self

    def _keys(self) -> dict[str, list[tuple[Any, ...]]]:
        """Each kind's keys (``store/access.py``'s ``KEYS``); timestep ids still whole."""
        return {
            "timestep": [(t,) for t in self.timestep_ids],
            "session": [(s,) for s in self.session_ids],
            "episode": [(e,) for e in self.episode_ids],
            "tag": [(t,) for t in self.tag_ids],
            "comment": [(c,) for c in self.comment_ids],
            "node": [(n,) for n in self.node_ids],
            "edge": [(e.src, e.relation, e.dst) for e in self.edges],
        }


class AssignAccessPolicyResponse(DeferredModel):
    policy_id: str | None
    changed: int = Field(description="Rows whose policy changed (a session: its timesteps).")


FIELDS = {
    "timestep": "timestep_ids",
    "session": "session_ids",
    "episode": "episode_ids",
    "tag": "tag_ids",
    "comment": "comment_ids",
    "node": "node_ids",
    "edge": "edges",
}


def set_access_policy(ctx: Context, req: AccessPolicy) -> PolicyObjectResponse:
    return _put(ctx, "access_policy", req)


def set_default_access_policy(
    ctx: Context, req: SetDefaultAccessPolicyRequest
) -> SetDefaultAccessPolicyResponse:
    if req.policy_id is None:
        ctx.store.delete_policy_object(DEFAULT_KIND, "default")
    else:
        policy_named(ctx.policy_objects, req.policy_id, "policy_id")
        body = {"policy_id": req.policy_id}
        ctx.store.put_policy_object(DEFAULT_KIND, "default", body, now_us(), ctx.caller.id)
    return SetDefaultAccessPolicyResponse(policy_id=req.policy_id)


def assign_access_policy(
    ctx: Context, req: AssignAccessPolicyRequest
) -> AssignAccessPolicyResponse:
    if req.policy_id is not None:
        policy_named(ctx.policy_objects, req.policy_id, "policy_id")
    wanted = req._keys()
    keys: dict[str, list[tuple[Any, ...]]] = {}
    for kind, named in wanted.items():
        if kind == "timestep":
            keys[kind] = [_timestep_key(t) for (t,) in named]
        else:
            keys[kind] = named
    # Every object must exist (for this admin) before any changes.
    for kind, named in keys.items():
        if not named:
            continue
        found = ctx.store.access_policies_of(kind, named)
        absent = [k for k in named if tuple(k) not in found]
        if absent:
            shown = ", ".join("/".join(str(p) for p in k) for k in absent[:5])
            raise NotFound(
                f"{FIELDS[kind]}: no such {kind} ({shown}); nothing was changed",
                field=FIELDS[kind],
            )
    changed = 0
    tables = ctx.store.unrestricted()  # a write: it runs on the tables themselves
    for kind, named in keys.items():
        if named:
            changed += tables.assign_access(kind, named, req.policy_id)
    return AssignAccessPolicyResponse(policy_id=req.policy_id, changed=changed)


def _timestep_key(timestep_id: str) -> tuple[str, int]:
    parsed = parse_timestep_id(timestep_id)
    if parsed is None:
        raise InvalidRequest(
            f"timestep_ids: {timestep_id!r} is not a timestep id ('ts-<session>-<tick>')",
            field="timestep_ids",
        )
    return parsed


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    _manage(
        "set_access_policy",
        AccessPolicy,
        PolicyObjectResponse,
        set_access_policy,
        "Define (or replace) an access policy: who reads, writes and deletes its objects.",
        "xdb set-access-policy --id private --read-roles self --write-roles self",
    ),
    _manage(
        "set_default_access_policy",
        SetDefaultAccessPolicyRequest,
        SetDefaultAccessPolicyResponse,
        set_default_access_policy,
        "Choose the access policy of objects stored without one (null: open).",
        "xdb set-default-access-policy --policy-id private",
    ),
    _manage(
        "assign_access_policy",
        AssignAccessPolicyRequest,
        AssignAccessPolicyResponse,
        assign_access_policy,
        "Put timesteps, sessions, episodes, tags, comments, nodes or edges under a policy.",
        (
            'EPISODE=$(xdb search deploy | python3 -c "import json, sys;'
            " print(json.load(sys.stdin)['episodes'][0]['episode_id'])\")\n"
            'xdb assign-access-policy --policy-id private --episode-ids "$EPISODE"'
        ),
    ),
)
