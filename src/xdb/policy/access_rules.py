"""Access policies (docs/policy.md): which stored objects a caller may read, write and
delete. Reading is enforced by the store (``store/access.py``: a restricted caller reads
through views), so this module only says which policies a caller reads (``readable``) and
refuses the writes it may not make (``require``), before anything is written."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from xdb.errors import NotFound, PermissionDenied
from xdb.models.common import Caller
from xdb.policy.policy_models import OPEN_ACCESS, AccessPolicy
from xdb.store.access import Readable
from xdb.store.tagging import missing_target
from xdb.store.types import ResolvedTarget

if TYPE_CHECKING:
    from xdb.ops.registry import Context
from xdb.timeutil import now_us

KIND = "access_policy"
DEFAULT_KIND = "access_default"  # one object, id "default": {"policy_id": ...}
EVERYONE = "*"

Action = Literal["read", "write", "delete"]
Objects = Mapping[str, Mapping[str, Any]]  # load.stored's answer: kind -> id -> object


def default_policy(objects: Objects) -> AccessPolicy:
    """The database's default policy: the one an admin set, else ``OPEN_ACCESS``."""
    chosen = objects.get(DEFAULT_KIND, {}).get("default")
    if chosen is not None:
        found = objects.get(KIND, {}).get(chosen.policy_id)
        if isinstance(found, AccessPolicy):
            return found
    return OPEN_ACCESS


def allows(policy: AccessPolicy, caller: Caller, action: Action, objects: Objects) -> bool:
    roles = {
        "read": policy.read_roles,
        "write": policy.write_roles,
        "delete": policy.delete_roles,
    }[action]
    if EVERYONE in roles or any(caller.has(r) for r in roles):
        return True
    if action != "read" or not policy.read_treaties:
        return False
    from xdb.policy.load import live  # load imports this module

    treaties = objects.get("treaty", {})
    now = now_us()
    for treaty_id in caller.treaty_ids:
        treaty = treaties.get(treaty_id)
        if (
            treaty_id in policy.read_treaties
            and treaty is not None
            and treaty.active
            and live(treaty.expires_at, now)
        ):
            return True
    return False


def readable(objects: Objects, caller: Caller, exporting: bool = False) -> Readable | None:
    """The policies ``caller`` reads (and, ``exporting``, that allow export); None when that
    is every policy an object can carry, so its reads need no restriction."""
    policies: dict[str, AccessPolicy] = dict(objects.get(KIND, {}))
    default = default_policy(objects)

    def ok(p: AccessPolicy) -> bool:
        return allows(p, caller, "read", objects) and (p.allow_export or not exporting)

    granted = frozenset(i for i, p in policies.items() if ok(p))
    if len(granted) == len(policies) and ok(default):
        return None
    return Readable(granted, ok(default))


def both(a: Readable | None, b: Readable | None) -> Readable | None:
    """What two readers may both read (None: every policy)."""
    if a is None or b is None:
        return b if a is None else a
    return Readable(a.policies & b.policies, a.default and b.default)


def policy_named(objects: Objects, policy_id: str | None, field: str) -> AccessPolicy:
    """The policy an object carries (None: the default), or a NotFound naming ``field``."""
    if policy_id is None:
        return default_policy(objects)
    found = objects.get(KIND, {}).get(policy_id)
    if not isinstance(found, AccessPolicy):
        raise NotFound(
            f"{field}: no access policy {policy_id!r} is defined; define it with"
            " set_access_policy (xdb set-access-policy) or leave it out for the default",
            field=field,
        )
    return found


def require(
    objects: Objects,
    caller: Caller,
    policy_id: str | None,
    action: Action,
    what: str,
    field: str = "access_policy_id",
) -> None:
    """Refuse ``action`` on objects under ``policy_id`` (None: the default) unless the
    caller's roles allow it; ``what`` names the object in the error."""
    policy = policy_named(objects, policy_id, field)
    if not allows(policy, caller, action, objects):
        roles = {"read": policy.read_roles, "write": policy.write_roles}.get(
            action, policy.delete_roles
        )
        raise PermissionDenied(
            f"{what}: access policy {policy.id!r} lets only the roles {', '.join(roles)}"
            f" {action} it; caller {caller.id!r} has {', '.join(caller.roles) or 'none'}",
            field=field,
        )


def configured(objects: Objects) -> bool:
    """Whether an admin has defined any access policy or default (else only the built-in
    open default applies, whose writers the authorization matrix already checks)."""
    return bool(objects.get(KIND)) or bool(objects.get(DEFAULT_KIND))


def check_create(ctx: Context, policy_id: str | None, what: str) -> None:
    """Refuse to store a new object under ``policy_id`` (None: the default) unless the
    caller may write under it; an unknown policy is a NotFound naming the field."""
    if policy_id is None and not configured(ctx.policy_objects):
        return
    require(ctx.policy_objects, ctx.caller, policy_id, "write", what)


def check_target(ctx: Context, target: ResolvedTarget, what: str) -> None:
    """Refuse to annotate (tag, comment) timesteps the caller may not write; timesteps it
    may not read are as if they did not exist."""
    if not configured(ctx.policy_objects):
        return
    policies = ctx.store.target_policies(target)
    if not policies:
        raise missing_target(target)
    for policy_id in sorted(policies, key=lambda p: p or ""):
        require(ctx.policy_objects, ctx.caller, policy_id, "write", what, "target")


def may_delete(ctx: Context, kind: str, key: tuple[Any, ...], what: str) -> bool:
    """Whether the object exists for this caller (one it may not read does not); refused
    unless the caller may delete it."""
    if not configured(ctx.policy_objects):
        return True
    found = ctx.store.access_policies_of(kind, [key])
    if key not in found:
        return False
    require(ctx.policy_objects, ctx.caller, found[key], "delete", what, "episode_id")
    return True
