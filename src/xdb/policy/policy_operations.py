"""Managing who may see what: disclosure policies, treaties, hush constraints and named
callers (docs/policy.md). Admins only, and not in the agent's MCP toolset: an agent must
not lift its own hush or widen a partner's treaty."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from xdb.errors import InvalidRequest, NotFound
from xdb.models.common import DeferredModel, Model, NonEmpty
from xdb.ops.registry import Context, Operation
from xdb.policy.access_rules import DEFAULT_KIND
from xdb.policy.keys import KIND, make_key, stored_keys, usable
from xdb.policy.load import ADMIN, named_caller, stored
from xdb.policy.policy_models import (
    AccessPolicy,
    CallerProfile,
    DisclosurePolicy,
    Hush,
    PolicyKind,
    Treaty,
)
from xdb.timeutil import from_us, now_us


class PolicyObjectResponse(DeferredModel):
    kind: PolicyKind
    id: str
    created: bool = Field(description="False: an object of that kind and id was replaced.")


class RemovePolicyRequest(Model):
    """Remove a disclosure policy, treaty, hush, named caller or access policy."""

    kind: PolicyKind
    id: NonEmpty


class RemovePolicyResponse(DeferredModel):
    kind: PolicyKind
    id: str
    removed: bool


class PoliciesRequest(Model):
    """Every disclosure policy, treaty, hush and named caller (or those of one kind)."""

    kind: PolicyKind | None = None


class PoliciesResponse(DeferredModel):
    disclosure_policies: list[DisclosurePolicy]
    treaties: list[Treaty]
    hushes: list[Hush]
    callers: list[CallerProfile]
    access_policies: list[AccessPolicy]
    default_access_policy_id: str | None = Field(
        description="The access policy of objects stored without one; null: the built-in open."
    )


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
    if req.kind == "access_policy":
        _unused(ctx, req.id)
    removed = ctx.store.delete_policy_object(req.kind, req.id)
    if req.kind == "caller":  # its keys die with it: a caller defined again gets new ones
        for body in stored_keys(ctx.store).values():
            if body["caller_id"] == req.id and usable(body):
                revoke_key(ctx, RevokeKeyRequest(id=body["id"]))
    return RemovePolicyResponse(kind=req.kind, id=req.id, removed=removed)


def _unused(ctx: Context, policy_id: str) -> None:
    """Refuse to remove an access policy objects or the default still carry: their
    readers would change behind the admin's back."""
    default = ctx.policy_objects.get(DEFAULT_KIND, {}).get("default")
    if default is not None and default.policy_id == policy_id:
        raise InvalidRequest(
            f"id: access policy {policy_id!r} is the database's default; choose another"
            " (set_default_access_policy) first",
            field="id",
        )
    # Every object counts, not only those this admin reads.
    tables = ctx.store.unrestricted().access_in_use(policy_id)
    if tables:
        raise InvalidRequest(
            f"id: access policy {policy_id!r} still covers objects in {', '.join(tables)};"
            " put them under another policy (assign_access_policy) first",
            field="id",
        )


def policies(ctx: Context, req: PoliciesRequest) -> PoliciesResponse:
    found = stored(ctx.store)

    def of(kind: str) -> list[Any]:
        return list(found[kind].values()) if req.kind in (None, kind) else []

    default = found.get(DEFAULT_KIND, {}).get("default")
    return PoliciesResponse(
        disclosure_policies=of("disclosure_policy"),
        treaties=of("treaty"),
        hushes=of("hush"),
        callers=of("caller"),
        access_policies=of("access_policy"),
        default_access_policy_id=None if default is None else default.policy_id,
    )


class CreateKeyRequest(Model):
    """Make an API key for a caller (a defined one, or self). The key is shown once."""

    caller_id: NonEmpty = Field(description="The caller the key acts as.")
    description: str = ""


class CreatedKey(DeferredModel):
    id: str
    key: str = Field(description="The key itself: shown this once, kept only as a hash.")
    caller_id: str


class KeysRequest(Model):
    """List API keys (never the keys themselves)."""


class KeyInfo(DeferredModel):
    id: str
    caller_id: str
    description: str
    created_at: datetime
    revoked_at: datetime | None


class KeysResponse(DeferredModel):
    keys: list[KeyInfo]


class RevokeKeyRequest(Model):
    """Revoke an API key: it is refused from now on."""

    id: NonEmpty


class RevokeKeyResponse(DeferredModel):
    id: str
    revoked: bool = Field(description="False: it was revoked already.")


def create_key(ctx: Context, req: CreateKeyRequest) -> CreatedKey:
    named_caller(ctx.store, req.caller_id)  # a key for a caller no one defined is a mistake
    taken = stored_keys(ctx.store)
    key_id, key, sha = make_key()
    while key_id in taken:  # 32-bit ids: a clash is rare, and must not replace a key
        key_id, key, sha = make_key()
    body = {
        "id": key_id,
        "caller_id": req.caller_id,
        "description": req.description,
        "sha256": sha,
        "created_at": now_us(),
        "revoked_at": None,
    }
    ctx.store.put_policy_object(KIND, key_id, body, now_us(), ctx.caller.id)
    return CreatedKey(id=key_id, key=key, caller_id=req.caller_id)


def keys(ctx: Context, req: KeysRequest) -> KeysResponse:
    return KeysResponse(
        keys=[
            KeyInfo(
                id=b["id"],
                caller_id=b["caller_id"],
                description=b.get("description", ""),
                created_at=from_us(b["created_at"]),
                revoked_at=None if b.get("revoked_at") is None else from_us(b["revoked_at"]),
            )
            for b in stored_keys(ctx.store).values()
        ]
    )


def revoke_key(ctx: Context, req: RevokeKeyRequest) -> RevokeKeyResponse:
    body = stored_keys(ctx.store).get(req.id)
    if body is None:
        raise NotFound(f"id: no API key {req.id!r} (xdb keys list)", field="id")
    if body.get("revoked_at") is not None:
        return RevokeKeyResponse(id=req.id, revoked=False)
    body = {**body, "revoked_at": now_us()}
    ctx.store.put_policy_object(KIND, req.id, body, now_us(), ctx.caller.id)
    return RevokeKeyResponse(id=req.id, revoked=True)


def _manage(
    name: str,
    request: type[Any],
    response: type[Any],
    handler: Any,
    summary: str,
    example: str,
    readonly: bool = False,
    kind: Literal["put", "remove", "read", "make"] = "put",
    cli_name: str | None = None,
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
        idempotent=kind not in ("read", "make"),
        destructive=kind in ("put", "remove"),
        roles=(ADMIN,),
        agent_tool=False,
        cli_name=cli_name,
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
    _manage(
        "create_key",
        CreateKeyRequest,
        CreatedKey,
        create_key,
        "Make an API key for a caller; the key is shown once.",
        "xdb keys create --caller-id self",
        kind="make",
        cli_name="keys create",
    ),
    _manage(
        "keys",
        KeysRequest,
        KeysResponse,
        keys,
        "List API keys: id, caller, when made and revoked (never the keys).",
        "xdb keys list",
        readonly=True,
        kind="read",
        cli_name="keys list",
    ),
    _manage(
        "revoke_key",
        RevokeKeyRequest,
        RevokeKeyResponse,
        revoke_key,
        "Revoke an API key: refused from now on.",
        (
            'KEY=$(xdb keys list | python3 -c "import json, sys;'
            " print(json.load(sys.stdin)['keys'][0]['id'])\")\n"
            'xdb keys revoke --id "$KEY"'
        ),
        kind="remove",
        cli_name="keys revoke",
    ),
)
