"""Which roles may run which operation: the authorization matrix (docs/policy.md).

Reads are open to every caller (what each sees is the disclosure policy's business);
writes to the agent itself and to admins; an operation may name its own roles (the policy
management operations: admins only)."""

from __future__ import annotations

from typing import Any

from xdb.errors import PermissionDenied
from xdb.models.common import Caller
from xdb.ops.registry import Operation

WRITERS = ("self", "admin")


def roles_for(op: Operation[Any, Any]) -> tuple[str, ...] | None:
    """The roles that may run ``op``; None: every caller."""
    if op.roles is not None:
        return op.roles
    return None if op.readonly else WRITERS


def authorize(caller: Caller, op: Operation[Any, Any]) -> None:
    allowed = roles_for(op)
    if allowed is not None and not any(caller.has(r) for r in allowed):
        raise PermissionDenied(
            f"{op.group}.{op.name}: caller {caller.id!r} (roles: "
            f"{', '.join(caller.roles) or 'none'}) may not run it; it needs one of the roles "
            f"{', '.join(allowed)}"
        )
