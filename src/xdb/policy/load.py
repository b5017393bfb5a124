"""A caller's view, from the policy objects stored in the database: which disclosure
policies apply (its own and its active treaties'), which hushes are in force."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from xdb.errors import NotFound
from xdb.models.common import BudStatus, Caller
from xdb.policy.disclosure import Visibility, compile_hushes, compile_policy, concept_index
from xdb.policy.policy_models import (
    AccessDefault,
    AccessPolicy,
    CallerProfile,
    DisclosurePolicy,
    Hush,
    Treaty,
)
from xdb.store.protocol import Store
from xdb.timeutil import now_us, to_us

# Roles that see every concept (but hushed ones) unless given a disclosure policy.
UNRESTRICTED_ROLES = frozenset({"self", "admin"})
AUDITOR = "auditor"
ADMIN = "admin"

KINDS: dict[str, type[BaseModel]] = {
    "disclosure_policy": DisclosurePolicy,
    "treaty": Treaty,
    "hush": Hush,
    "caller": CallerProfile,
    "access_policy": AccessPolicy,
    "access_default": AccessDefault,
}


def stored(store: Store) -> dict[str, dict[str, Any]]:
    """Every policy object by kind and id, validated (one that no longer validates, written
    by another version, is skipped: it grants nothing)."""
    out: dict[str, dict[str, Any]] = {k: {} for k in KINDS}
    for kind, key, body in store.policy_objects():
        model = KINDS.get(kind)
        if model is None:
            continue
        try:
            out[kind][key] = model.model_validate(body)
        except ValidationError:
            continue
    return out


def live(expires: Any, now: int) -> bool:
    return expires is None or to_us(expires) > now


def visibility(
    store: Store, caller: Caller, objects: dict[str, dict[str, Any]] | None = None
) -> Visibility:
    """What ``caller`` may see, now (``objects``: ``stored(store)``, when already read)."""
    if caller.has(AUDITOR):
        return Visibility(concept_index(store), None, [], set, sees_all=True)
    objects = stored(store) if objects is None else objects
    now = now_us()
    hushes = [h for h in objects["hush"].values() if live(h.expires_at, now)]
    wanted: list[str] = []
    if caller.disclosure_policy_id is not None:
        wanted.append(caller.disclosure_policy_id)
    restricted = bool(wanted) or not UNRESTRICTED_ROLES.intersection(caller.roles)
    if restricted and not UNRESTRICTED_ROLES.intersection(caller.roles):
        for treaty_id in caller.treaty_ids:
            treaty = objects["treaty"].get(treaty_id)
            if treaty is not None and treaty.active and live(treaty.expires_at, now):
                wanted.append(treaty.disclosure_policy_id)
    if not restricted and not hushes:
        return Visibility(concept_index(store), None, [], set)
    index = concept_index(store)
    policies = None
    if restricted:
        specs = objects["disclosure_policy"]
        policies = [compile_policy(index, specs[p]) for p in wanted if p in specs]
    return Visibility(
        index,
        policies,
        compile_hushes(index, hushes),
        lambda: _bud_names(store),
    )


def _bud_names(store: Store) -> set[str]:
    """Every bud's id and name: what makes a concept a candidate, whoever may read the bud
    (through a caller's access views, a hidden bud's name would pass for a plain concept)."""
    return {
        n
        for t in store.unrestricted().list_tags("bud", None)
        if t.bud_status is not BudStatus.PROMOTED  # a stable concept now
        for n in (t.id, t.name)
    }


def named_caller(store: Store, caller_id: str) -> Caller:
    """The caller a stored profile describes (an API key or ``--caller`` names one)."""
    profile = stored(store)["caller"].get(caller_id)
    if profile is None:
        if caller_id == "self":
            return Caller()
        raise NotFound(
            f"caller: no caller {caller_id!r} is defined (xdb set-caller)", field="caller"
        )
    return Caller(
        id=profile.id,
        roles=tuple(profile.roles),
        treaty_ids=tuple(profile.treaty_ids),
        disclosure_policy_id=profile.disclosure_policy_id,
    )
