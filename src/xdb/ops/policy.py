"""Managing who may see what: disclosure policies, treaties, hush constraints and named
callers (docs/policy.md). Admins only, and not in the agent's MCP toolset: an agent must
not lift its own hush or widen a partner's treaty."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from xdb.models.common import Model, NonEmpty
from xdb.models.policy import CallerProfile, DisclosurePolicy, Hush, PolicyKind, Treaty
from xdb.ops.registry import Context, Operation
from xdb.policy.load import ADMIN, stored
from xdb.timeutil import now_us


class PolicyObjectResponse(BaseModel):
    kind: PolicyKind
    id: str
    created: bool = Field(description="False: an object of that kind and id was replaced.")


class RemovePolicyRequest(Model):
    """Remove a disclosure policy, treaty, hush or named caller."""

    kind: PolicyKind
    id: NonEmpty


class RemovePolicyResponse(BaseModel):
    kind: PolicyKind
    id: str
    removed: bool


class PoliciesRequest(Model):
    """Every disclosure policy, treaty, hush and named caller (or those of one kind)."""

    kind: PolicyKind | None = None


class PoliciesResponse(BaseModel):
    disclosure_policies: list[DisclosurePolicy]
    treaties: list[Treaty]
    hushes: list[Hush]
    callers: list[CallerProfile]


def _put(ctx: Context, kind: PolicyKind, obj: Model) -> PolicyObjectResponse:
    body = obj.model_dump(mode="json")
    created = ctx.store.put_policy_object(kind, body["id"], body, now_us(), ctx.caller.id)
    return PolicyObjectResponse(kind=kind, id=body["id"], created=created)


def set_disclosure_policy(ctx: Context, req: DisclosurePolicy) -> PolicyObjectResponse:
    return _put(ctx, "disclosure_policy", req)


def set_treaty(ctx: Context, req: Treaty) -> PolicyObjectResponse:
    # Names are resolved when a caller acts: a treaty whose policy is not (or no longer)
    # defined grants nothing, as a caller's unknown treaty does.
    return _put(ctx, "treaty", req)


def hush(ctx: Context, req: Hush) -> PolicyObjectResponse:
    return _put(ctx, "hush", req)


def set_caller(ctx: Context, req: CallerProfile) -> PolicyObjectResponse:
    return _put(ctx, "caller", req)


def remove_policy(ctx: Context, req: RemovePolicyRequest) -> RemovePolicyResponse:
    removed = ctx.store.delete_policy_object(req.kind, req.id)
    return RemovePolicyResponse(kind=req.kind, id=req.id, removed=removed)


def policies(ctx: Context, req: PoliciesRequest) -> PoliciesResponse:
    found = stored(ctx.store)

    def of(kind: str) -> list[Any]:
        return list(found[kind].values()) if req.kind in (None, kind) else []

    return PoliciesResponse(
        disclosure_policies=of("disclosure_policy"),
        treaties=of("treaty"),
        hushes=of("hush"),
        callers=of("caller"),
    )


def _manage(
    name: str,
    request: type[Any],
    response: type[Any],
    handler: Any,
    summary: str,
    example: str,
    readonly: bool = False,
    kind: Literal["put", "remove", "read"] = "put",
) -> Operation[Any, Any]:
    return Operation(
        name=name,
        group="policy",
        request=request,
        response=response,
        handler=handler,
        readonly=readonly,
        summary=summary,
        example=example,
        idempotent=kind != "read",
        destructive=kind != "read",
        roles=(ADMIN,),
        agent_tool=False,
    )


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    _manage(
        "set_disclosure_policy",
        DisclosurePolicy,
        PolicyObjectResponse,
        set_disclosure_policy,
        "Define (or replace) a disclosure policy: which concepts its holders may see.",
        'xdb set-disclosure-policy --id partner-view --allow \'{"subtrees": ["Dancing"]}\'',
    ),
    _manage(
        "set_treaty",
        Treaty,
        PolicyObjectResponse,
        set_treaty,
        "Define (or replace) a treaty granting a partner a disclosure policy.",
        "xdb set-treaty --id t-acme --partner acme --disclosure-policy-id partner-view",
    ),
    _manage(
        "hush",
        Hush,
        PolicyObjectResponse,
        hush,
        "Hush concepts, in one session or everywhere, until lifted or expired.",
        'xdb hush --id h1 --concepts \'{"concepts": ["Anger"]}\'',
    ),
    _manage(
        "set_caller",
        CallerProfile,
        PolicyObjectResponse,
        set_caller,
        "Define a named caller: its roles, treaties and own disclosure policy.",
        "xdb set-caller --id acme-bot --roles partner --treaty-ids t-acme",
    ),
    _manage(
        "remove_policy",
        RemovePolicyRequest,
        RemovePolicyResponse,
        remove_policy,
        "Remove a disclosure policy, treaty, hush or named caller.",
        "xdb remove-policy --kind hush --id h1",
        kind="remove",
    ),
    _manage(
        "policies",
        PoliciesRequest,
        PoliciesResponse,
        policies,
        "List disclosure policies, treaties, hushes and named callers.",
        "xdb policies",
        readonly=True,
        kind="read",
    ),
)
